// BackgroundQueue: one worker thread that runs small pieces of work against
// the API server off the caller's thread (informer handlers, Allocate,
// NRI's CreateContainer), so that callers never wait on the API server.
// EventQueue and assignment::AssignedMarker are built on it.
//
// Each piece of work has a key:
//   - dedupe: Add() of a key that is queued, running or waiting for a retry,
//     or among the last `remembered` finished keys, is ignored (an event
//     posted once, a pod marked once however many containers it has);
//   - bound: at most `capacity` keys queued, running or retrying; beyond
//     that Add() drops the work and logs it with the running count of drops
//     (a stalled API server cannot make memory grow without limit);
//   - retry in rounds: work that answers kRetry is set aside; the queue runs
//     new work first, and every retry delay (exponential backoff, cut short
//     by new work or Stop()) runs all set-aside work once more, so one key
//     that keeps failing never holds up the others.
//
// Ownership: borrows the clock. Thread-safety: Add(), pending(), dropped()
// and WaitIdle() from any thread; Start()/Stop() from one. Work queued or
// set aside at Stop() is dropped; work runs on the worker thread only.
#ifndef GCUSHARE_KUBE_BACKGROUND_QUEUE_H_
#define GCUSHARE_KUBE_BACKGROUND_QUEUE_H_

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "base/backoff.h"
#include "base/cancellation.h"
#include "base/clock.h"
#include "base/mutex.h"
#include "base/thread_annotations.h"

namespace gcushare::kube {

struct BackgroundQueueOptions {
  std::string name;  // For logs: "event queue", "assigned marker".
  size_t capacity = 10000;
  size_t remembered = 10000;  // Finished keys still deduped.
  base::BackoffOptions retry{std::chrono::milliseconds(200),
                             std::chrono::seconds(30), 2.0, 0.2};
};

class BackgroundQueue {
 public:
  enum class Outcome { kDone, kRetry };
  using Work = std::function<Outcome()>;

  BackgroundQueue(base::Clock* clock, BackgroundQueueOptions options);
  ~BackgroundQueue();  // Stop()s.
  BackgroundQueue(const BackgroundQueue&) = delete;
  BackgroundQueue& operator=(const BackgroundQueue&) = delete;

  void Start();
  void Stop();

  // Queues `work` under `key`; false when deduped or dropped (full).
  bool Add(const std::string& key, Work work);

  // Keys queued, running or waiting for a retry.
  size_t pending() const;
  // Work dropped because the queue was full, since construction.
  uint64_t dropped() const;
  // Waits until pending() is 0; false after `timeout`.
  bool WaitIdle(std::chrono::milliseconds timeout);

 private:
  struct Item {
    std::string key;
    Work work;
  };
  void Run();
  // Runs `items` on the worker thread; returns those to retry.
  std::vector<Item> RunRound(std::vector<Item> items);
  void Finish(const std::string& key) REQUIRES(mu_);

  base::Clock* const clock_;
  const BackgroundQueueOptions options_;
  mutable base::Mutex mu_;
  base::CondVar cv_;       // New work, or Stop().
  base::CondVar idle_cv_;  // pending() reached 0.
  std::deque<Item> queue_ GUARDED_BY(mu_);
  size_t retrying_ GUARDED_BY(mu_) = 0;
  size_t running_ GUARDED_BY(mu_) = 0;
  std::set<std::string> active_ GUARDED_BY(mu_);  // Keys pending.
  std::set<std::string> finished_ GUARDED_BY(mu_);
  std::deque<std::string> finished_order_ GUARDED_BY(mu_);
  uint64_t dropped_ GUARDED_BY(mu_) = 0;
  bool stop_ GUARDED_BY(mu_) = false;
  // Cuts the current retry delay short (new work or Stop()); replaced per
  // delay.
  std::shared_ptr<base::Cancellation> wake_ GUARDED_BY(mu_);
  std::thread thread_;
};

}  // namespace gcushare::kube

#endif  // GCUSHARE_KUBE_BACKGROUND_QUEUE_H_
