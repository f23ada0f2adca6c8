// ShutdownSignal: turns SIGTERM and SIGINT into an orderly shutdown.
//
// Construct it first in main, before any thread exists: it blocks SIGTERM and
// SIGINT in the calling thread, so every thread created afterwards inherits
// the block, and one dedicated thread receives them with sigwait(). The first
// signal marks shutdown requested, wakes Wait() and runs the callbacks; a
// second signal while shutting down exits the process at once (exit code
// 128+signal), for an operator who needs it gone.
//
// Ownership: one per process; owns its waiter thread, joined in the
// destructor. Thread-safety: all methods may be called from any thread.
// Callbacks run on the waiter thread (or on the thread calling Trigger) and
// must not call back into this object.
#ifndef GCUSHARE_DAEMON_SHUTDOWN_H_
#define GCUSHARE_DAEMON_SHUTDOWN_H_

#include <chrono>
#include <functional>
#include <thread>
#include <vector>

#include "base/mutex.h"
#include "base/thread_annotations.h"

namespace gcushare {

class ShutdownSignal {
 public:
  ShutdownSignal();
  ~ShutdownSignal();
  ShutdownSignal(const ShutdownSignal&) = delete;
  ShutdownSignal& operator=(const ShutdownSignal&) = delete;

  // Runs `callback` once when shutdown is requested (at once if it already
  // was).
  void OnShutdown(std::function<void()> callback);

  // Requests shutdown without a signal (tests, fatal errors).
  void Trigger();

  bool Requested() const;
  // The signal that requested shutdown, or 0 (Trigger, or not yet).
  int SignalNumber() const;

  // Blocks until shutdown is requested and the callbacks registered before
  // the request have run.
  void Wait();
  // Like Wait(), but gives up after `timeout`; returns whether shutdown was
  // requested and its callbacks ran.
  bool WaitFor(std::chrono::milliseconds timeout);

 private:
  void Run();
  void Fire(int signo);

  mutable base::Mutex mu_;
  base::CondVar cv_;
  bool requested_ GUARDED_BY(mu_) = false;
  // Set after the request's callbacks ran.
  bool callbacks_done_ GUARDED_BY(mu_) = false;
  // Destructor is waking the waiter thread.
  bool stopping_ GUARDED_BY(mu_) = false;
  int signo_ GUARDED_BY(mu_) = 0;
  std::vector<std::function<void()>> callbacks_ GUARDED_BY(mu_);
  std::thread waiter_;
};

}  // namespace gcushare

#endif  // GCUSHARE_DAEMON_SHUTDOWN_H_
