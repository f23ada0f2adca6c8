// A one-shot cancellation signal shared between the thread running a request
// (a watch stream, a backoff sleep) and a thread that wants it to end, such
// as Informer::Stop().
//
// Transports register a "waker" for the duration of a blocking wait so that
// Cancel() interrupts it at once (CurlHttpClient wakes its curl_multi_poll).
//
// Ownership: the owner of the operation owns the Cancellation and keeps it
// alive while any request uses it. Once cancelled it stays cancelled.
// Thread-safety: every method may be called from any thread.
#ifndef GCUSHARE_BASE_CANCELLATION_H_
#define GCUSHARE_BASE_CANCELLATION_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>

#include "base/mutex.h"
#include "base/thread_annotations.h"

namespace gcushare::base {

class Cancellation {
 public:
  using WakerId = uint64_t;

  Cancellation() = default;
  Cancellation(const Cancellation&) = delete;
  Cancellation& operator=(const Cancellation&) = delete;

  // Marks cancelled and runs every registered waker (once). Idempotent.
  void Cancel();

  bool IsCancelled() const { return cancelled_.load(); }

  // Blocks until cancelled or until `timeout` passes (real time). Returns
  // true when cancelled.
  bool WaitFor(std::chrono::nanoseconds timeout);

  // Registers `waker` to be run by Cancel(). When already cancelled, runs
  // it before returning. Wakers must be quick and must not call back into
  // this object.
  WakerId AddWaker(std::function<void()> waker);

  // Unregisters; once this returns, the waker is not running and never will.
  void RemoveWaker(WakerId id);

 private:
  std::atomic<bool> cancelled_{false};
  Mutex mu_;
  CondVar cv_;
  std::map<WakerId, std::function<void()>> wakers_ GUARDED_BY(mu_);
  WakerId next_id_ GUARDED_BY(mu_) = 1;
};

}  // namespace gcushare::base

#endif  // GCUSHARE_BASE_CANCELLATION_H_
