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
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "base/clock.h"

namespace gcushare::peers::dra_kubelet {

class DelayQueue {
 public:
  explicit DelayQueue(base::Clock* clock, std::chrono::milliseconds poll =
                                              std::chrono::milliseconds(10));
  ~DelayQueue();
  DelayQueue(const DelayQueue&) = delete;
  DelayQueue& operator=(const DelayQueue&) = delete;

  void Start();
  void Stop();

  // Schedules `action` for now + `delay` under `key`. When `key` is already
  // pending: AddIfAbsent keeps the original (returns false), Replace
  // reschedules.
  bool AddIfAbsent(const std::string& key, std::chrono::nanoseconds delay,
                   std::function<void()> action);
  void Replace(const std::string& key, std::chrono::nanoseconds delay,
               std::function<void()> action);
  // Returns whether something was pending.
  bool Cancel(const std::string& key);
  bool Pending(const std::string& key) const;

  // Runs every due action on this thread; returns how many ran.
  int RunDue();

 private:
  struct Entry {
    std::chrono::steady_clock::time_point due;
    std::function<void()> action;
  };
  void Loop();

  base::Clock* const clock_;
  const std::chrono::milliseconds poll_;
  std::mutex run_mu_;  // Held while actions run; taken before mu_.
  mutable std::mutex mu_;
  std::condition_variable wake_;
  std::map<std::string, Entry> entries_;  // Guarded by mu_.
  bool stopping_ = false;                 // Guarded by mu_.
  std::thread thread_;
};

}  // namespace gcushare::peers::dra_kubelet

#endif  // GCUSHARE_TESTS_PEERS_DRA_KUBELET_DELAY_QUEUE_H_
