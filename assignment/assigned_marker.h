// AssignedMarker: marks pods enflame.com/gcu-device-assigned="true" in the
// background, retrying until it sticks. Used by the device plugin (kubelet
// calls Allocate once per admission, so a failed patch must not fail it)
// and by the NRI plugin (CreateContainer must never wait on the API
// server).
//
// A mark is retried with backoff until the patch succeeds, the pod is gone
// (404) or was re-created (the uid precondition answers 409), or Stop().
// Marks pending at Stop() are lost (the other component marks the pod as
// well when it hands out the card).
//
// Ownership: borrows the client and the clock. Thread-safety: Mark() and
// pending() from any thread; Start()/Stop() from one.
#ifndef GCUSHARE_ASSIGNMENT_ASSIGNED_MARKER_H_
#define GCUSHARE_ASSIGNMENT_ASSIGNED_MARKER_H_

#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

#include "kube/backoff.h"
#include "kube/cancellation.h"
#include "kube/clock.h"
#include "kube/kube_client.h"
#include "status/status.h"

namespace gcushare::assignment {

class AssignedMarker {
 public:
  AssignedMarker(kube::KubeClient* client, kube::Clock* clock,
                 kube::BackoffOptions backoff);
  ~AssignedMarker();  // Stop()s.
  AssignedMarker(const AssignedMarker&) = delete;
  AssignedMarker& operator=(const AssignedMarker&) = delete;

  // The one patch that marks a pod, as Allocate sends it first.
  static Status Patch(kube::KubeClient* client, const std::string& ns,
                      const std::string& name, const std::string& uid);

  void Start();
  void Stop();
  // Queues the mark of pod ns/name with `uid`.
  void Mark(std::string ns, std::string name, std::string uid);
  // Marks queued or being retried.
  size_t pending() const;

 private:
  struct Pending {
    std::string ns;
    std::string name;
    std::string uid;
  };
  void Run();

  kube::KubeClient* const client_;
  kube::Clock* const clock_;
  const kube::BackoffOptions backoff_;
  kube::Cancellation cancel_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Pending> queue_;  // Guarded by mu_.
  size_t in_flight_ = 0;       // Guarded by mu_.
  bool stop_ = false;          // Guarded by mu_.
  std::thread thread_;
};

}  // namespace gcushare::assignment

#endif  // GCUSHARE_ASSIGNMENT_ASSIGNED_MARKER_H_
