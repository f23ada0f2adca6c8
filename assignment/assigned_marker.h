// AssignedMarker: marks pods enflame.com/gcu-device-assigned="true" in the
// background, retrying until it sticks. Used by the device plugin (kubelet
// calls Allocate once per admission, so a failed patch must not fail it)
// and by the NRI plugin (CreateContainer must never wait on the API
// server).
//
// Marks run on a kube::BackgroundQueue keyed by pod uid: one mark per pod
// (however many of its containers are created), a bounded number pending
// (more are dropped and logged), and a mark that fails is retried with
// backoff in rounds, so one pod whose patch keeps failing never holds up
// the others. A mark ends when the patch succeeds, the pod is gone
// (NotFound) or was re-created (the uid precondition fails: Aborted), the
// patch is refused as invalid, or at Stop().
// Marks pending at Stop() are lost (the other component marks the pod as
// well when it hands out the card, and the device plugin, once restarted,
// marks every pod of its node that runs unmarked: device-plugin/owed_mark.h).
//
// Ownership: borrows the client and the clock. Thread-safety: Mark(),
// pending() and WaitIdle() from any thread; Start()/Stop() from one.
#ifndef GCUSHARE_ASSIGNMENT_ASSIGNED_MARKER_H_
#define GCUSHARE_ASSIGNMENT_ASSIGNED_MARKER_H_

#include <chrono>
#include <string>

#include "base/backoff.h"
#include "base/clock.h"
#include "kube/background_queue.h"
#include "kube/kube_client.h"
#include "status/status.h"

namespace gcushare::assignment {

class AssignedMarker {
 public:
  AssignedMarker(kube::KubeClient* client, base::Clock* clock,
                 base::BackoffOptions backoff, size_t capacity = 10000);
  AssignedMarker(const AssignedMarker&) = delete;
  AssignedMarker& operator=(const AssignedMarker&) = delete;

  // The one patch that marks a pod, as Allocate sends it first.
  static Status Patch(kube::KubeClient* client, const std::string& ns,
                      const std::string& name, const std::string& uid);

  void Start() { queue_.Start(); }
  void Stop() { queue_.Stop(); }
  // Queues the mark of pod ns/name with `uid`, unless that pod's mark is
  // pending or done already; false when it was not queued (pending, done,
  // or dropped: the queue is full).
  bool Mark(std::string ns, std::string name, std::string uid);
  // Marks queued or being retried.
  size_t pending() const { return queue_.pending(); }
  // Waits until no mark is pending; false after `timeout`.
  bool WaitIdle(std::chrono::milliseconds timeout) {
    return queue_.WaitIdle(timeout);
  }

 private:
  kube::KubeClient* const client_;
  kube::BackgroundQueue queue_;  // Stopped (first) on destruction.
};

}  // namespace gcushare::assignment

#endif  // GCUSHARE_ASSIGNMENT_ASSIGNED_MARKER_H_
