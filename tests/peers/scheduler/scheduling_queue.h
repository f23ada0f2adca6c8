// The queue of pods waiting to be scheduled, in the shape of
// kube-scheduler's: an active queue (FIFO here) and an unschedulable set.
// A pod that failed is parked until something may have made room (a node
// added or changed, a bound pod deleted or finished: MoveAllToActive), a
// change to the pod itself, or until it has been parked for the
// unschedulable timeout (FlushParked; kube-scheduler's
// --pod-max-in-unschedulable-pods-duration, default 5 minutes).
//
// One pod is in flight at a time (one scheduling worker): Pop() hands it
// out, Done() ends its attempt.
//
// Thread-safety: all methods may be called from any thread.
#ifndef GCUSHARE_TESTS_PEERS_SCHEDULER_SCHEDULING_QUEUE_H_
#define GCUSHARE_TESTS_PEERS_SCHEDULER_SCHEDULING_QUEUE_H_

#include <chrono>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "base/mutex.h"

namespace gcushare::scheduler {

class SchedulingQueue {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;

  // A pod to schedule. `changed` says whether the pod itself changed in a
  // way that matters (spec, labels, annotations): a parked or in-flight pod
  // is re-queued only then.
  void Add(const std::string& key, bool changed = true);
  // The pod is gone, bound or finished.
  void Remove(const std::string& key);
  // Wakes every parked pod.
  void MoveAllToActive();
  // Moves pods parked since before `now - max_parked` to the active queue.
  void FlushParked(TimePoint now, std::chrono::nanoseconds max_parked);

  // The next pod (now in flight), or nullopt after `wait` or Shutdown().
  std::optional<std::string> Pop(std::chrono::milliseconds wait);
  // Ends the attempt for the in-flight pod: parked (at `now`) unless it was
  // bound, or re-queued when it changed meanwhile.
  void Done(const std::string& key, bool bound, TimePoint now);

  void Shutdown();

  size_t active() const;
  size_t parked() const;

 private:
  mutable base::Mutex mu_;
  base::CondVar cv_;
  std::deque<std::string> active_ GUARDED_BY(mu_);
  std::set<std::string> active_set_ GUARDED_BY(mu_);
  std::map<std::string, TimePoint> parked_ GUARDED_BY(mu_);
  std::optional<std::string> in_flight_ GUARDED_BY(mu_);
  bool requeue_in_flight_ GUARDED_BY(mu_) = false;
  bool removed_in_flight_ GUARDED_BY(mu_) = false;
  bool shutdown_ GUARDED_BY(mu_) = false;

  // By value: callers pass keys of parked_, which it erases first (a
  // reference would dangle; ASan found it).
  void PushLocked(std::string key) REQUIRES(mu_);
};

}  // namespace gcushare::scheduler

#endif  // GCUSHARE_TESTS_PEERS_SCHEDULER_SCHEDULING_QUEUE_H_
