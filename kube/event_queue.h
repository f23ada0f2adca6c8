// EventQueue: posts Kubernetes Events from a background thread, so that
// callers on latency-sensitive threads (informer handlers, request paths)
// never wait on the API server. Each (object uid, reason, message) is
// posted at most once per process (a resync or a repeated update does not
// repeat it); the memory of what was posted is bounded (oldest forgotten
// first), and so is the queue: while the API server stalls, at most
// `capacity` events wait, further ones are dropped and logged with the
// running count. A post that fails is logged and dropped: Events are best
// effort. Built on kube::BackgroundQueue.
//
// Ownership: borrows the client. Thread-safety: Post() from any thread;
// Start()/Stop() from one. Posts still queued at Stop() are dropped.
#ifndef GCUSHARE_KUBE_EVENT_QUEUE_H_
#define GCUSHARE_KUBE_EVENT_QUEUE_H_

#include <chrono>
#include <cstdint>
#include <string>

#include "base/clock.h"
#include "kube/background_queue.h"
#include "kube/kube_client.h"

namespace gcushare::kube {

class EventQueue {
 public:
  EventQueue(KubeClient* client, std::string reporting_component,
             size_t remembered = 10000, size_t capacity = 1000);
  EventQueue(const EventQueue&) = delete;
  EventQueue& operator=(const EventQueue&) = delete;

  void Start() { queue_.Start(); }
  void Stop() { queue_.Stop(); }
  // Queues a Warning/Normal event about `involved` unless this exact one
  // was queued before (or the queue is full).
  void Post(const ObjectReference& involved, std::string type,
            std::string reason, std::string message);
  // Events queued and not yet posted (or failed).
  size_t pending() const { return queue_.pending(); }
  // Events dropped because `capacity` were pending.
  uint64_t dropped() const { return queue_.dropped(); }
  // Waits until nothing is pending; false after `timeout`.
  bool WaitIdle(std::chrono::milliseconds timeout) {
    return queue_.WaitIdle(timeout);
  }

 private:
  KubeClient* const client_;
  const std::string component_;
  base::RealClock clock_;  // Unused: events are never retried.
  BackgroundQueue queue_;  // Stopped (first) on destruction.
};

}  // namespace gcushare::kube

#endif  // GCUSHARE_KUBE_EVENT_QUEUE_H_
