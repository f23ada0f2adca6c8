// EventQueue: posts Kubernetes Events from a background thread, so that
// callers on latency-sensitive threads (informer handlers, request paths)
// never wait on the API server. Each (object uid, reason, message) is
// posted at most once per process (a resync or a repeated update does not
// repeat it); the memory of what was posted is bounded (oldest forgotten
// first). A post that fails is logged and dropped: Events are best effort.
//
// Ownership: borrows the client. Thread-safety: Post() from any thread;
// Start()/Stop() from one. Posts still queued at Stop() are dropped.
#ifndef GCUSHARE_KUBE_EVENT_QUEUE_H_
#define GCUSHARE_KUBE_EVENT_QUEUE_H_

#include <condition_variable>
#include <deque>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "kube/kube_client.h"

namespace gcushare::kube {

class EventQueue {
 public:
  EventQueue(KubeClient* client, std::string reporting_component,
             size_t remembered = 10000);
  ~EventQueue();  // Stop()s.
  EventQueue(const EventQueue&) = delete;
  EventQueue& operator=(const EventQueue&) = delete;

  void Start();
  void Stop();
  // Queues a Warning/Normal event about `involved` unless this exact one
  // was queued before.
  void Post(const ObjectReference& involved, std::string type,
            std::string reason, std::string message);
  // Events queued and not yet posted (or failed).
  size_t pending() const;

 private:
  struct Item {
    ObjectReference involved;
    std::string type;
    std::string reason;
    std::string message;
  };
  void Run();

  KubeClient* const client_;
  const std::string component_;
  const size_t remembered_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Item> queue_;              // Guarded by mu_.
  size_t in_flight_ = 0;                // Guarded by mu_.
  std::set<std::string> seen_;          // Guarded by mu_.
  std::deque<std::string> seen_order_;  // Guarded by mu_.
  bool stop_ = false;                   // Guarded by mu_.
  std::thread thread_;
};

}  // namespace gcushare::kube

#endif  // GCUSHARE_KUBE_EVENT_QUEUE_H_
