// Keyed delayed actions on an injected clock (base/clock.h), like the
// kubelet's TimedWorkerQueue for ResourceSlice wiping: an action runs once
// the clock's steady time reaches its due time, unless cancelled first.
//
// Actions run one at a time, outside the queue's lock, either on the
// queue's own thread (Start(): it re-reads the clock every `poll` of real
// time, which is how a FakeClock's Advance() is noticed) or on the caller's
// thread in RunDue(). RunDue() first waits for an action in progress, so
// that when it returns every action due at the clock's current time has
// run: tests call it after FakeClock::Advance() instead of sleeping.
//
// Ownership: owns its thread; Stop() (or the destructor) joins it; pending
// actions are dropped. Thread-safety: every method may be called from any
// thread, also from inside an action (except Stop and RunDue).
#ifndef GCUSHARE_TESTS_PEERS_DRA_KUBELET_DELAY_QUEUE_H_
#define GCUSHARE_TESTS_PEERS_DRA_KUBELET_DELAY_QUEUE_H_

#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <thread>

#include "base/clock.h"
#include "base/mutex.h"

namespace gcushare::peers::dra_kubelet {

class DelayQueue {
 public:
  explicit DelayQueue(base::Clock* clock, std::chrono::milliseconds poll =
                                              std::chrono::milliseconds(10));
  ~DelayQueue();
  DelayQueue(const DelayQueue&) = delete;
  DelayQueue& operator=(const DelayQueue&) = delete;

  void Start() EXCLUDES(mu_);
  void Stop() EXCLUDES(mu_);

  // Schedules `action` for now + `delay` under `key`. When `key` is already
  // pending: AddIfAbsent keeps the original (returns false), Replace
  // reschedules.
  bool AddIfAbsent(const std::string& key, std::chrono::nanoseconds delay,
                   std::function<void()> action) EXCLUDES(mu_);
  void Replace(const std::string& key, std::chrono::nanoseconds delay,
               std::function<void()> action) EXCLUDES(mu_);
  // Returns whether something was pending.
  bool Cancel(const std::string& key) EXCLUDES(mu_);
  bool Pending(const std::string& key) const EXCLUDES(mu_);

  // Runs every due action on this thread; returns how many ran.
  int RunDue() EXCLUDES(run_mu_, mu_);

 private:
  struct Entry {
    std::chrono::steady_clock::time_point due;
    std::function<void()> action;
  };
  void Loop() EXCLUDES(run_mu_, mu_);

  base::Clock* const clock_;
  const std::chrono::milliseconds poll_;
  base::Mutex run_mu_;  // Held while actions run.
  mutable base::Mutex mu_ ACQUIRED_AFTER(run_mu_);
  base::CondVar wake_;
  std::map<std::string, Entry> entries_ GUARDED_BY(mu_);
  bool stopping_ GUARDED_BY(mu_) = false;
  std::thread thread_;
};

}  // namespace gcushare::peers::dra_kubelet

#endif  // GCUSHARE_TESTS_PEERS_DRA_KUBELET_DELAY_QUEUE_H_
