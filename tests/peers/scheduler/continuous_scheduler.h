// Continuous mode: informers on all pods and all nodes feed a
// SchedulingQueue; one worker thread schedules the pods it pops against the
// informers' current state. Pending pods are queued as they appear; a
// failed pod waits (SchedulingQueue) until a node is added or changed, a
// bound pod is deleted or finishes, the pod itself changes, or the
// unschedulable timeout passes.
//
// Ownership: `client`, `scheduler` and options.clock are borrowed and must
// outlive this object. Thread-safety: Start() and Stop() from one thread;
// the informer callbacks and the worker run on their own threads.
#ifndef GCUSHARE_TESTS_PEERS_SCHEDULER_CONTINUOUS_SCHEDULER_H_
#define GCUSHARE_TESTS_PEERS_SCHEDULER_CONTINUOUS_SCHEDULER_H_

#include <atomic>
#include <chrono>
#include <memory>
#include <set>
#include <string>
#include <thread>

#include "base/clock.h"
#include "kube/informer.h"
#include "kube/kube_client.h"
#include "status/status.h"
#include "tests/peers/scheduler/pod_scheduler.h"
#include "tests/peers/scheduler/scheduling_queue.h"

namespace gcushare::scheduler {

struct ContinuousOptions {
  std::set<std::string> scheduler_names;
  // kube-scheduler's --pod-max-in-unschedulable-pods-duration.
  std::chrono::nanoseconds max_unschedulable = std::chrono::minutes(5);
  // How long Start() waits for the first lists.
  std::chrono::milliseconds sync_timeout = std::chrono::seconds(30);
  base::Clock* clock = nullptr;  // Required.
};

class ContinuousScheduler {
 public:
  ContinuousScheduler(kube::KubeClient* client, PodScheduler* scheduler,
                      ContinuousOptions options);
  ~ContinuousScheduler();  // Stop()s.
  ContinuousScheduler(const ContinuousScheduler&) = delete;
  ContinuousScheduler& operator=(const ContinuousScheduler&) = delete;

  // Starts the informers, waits for their first lists, starts the worker.
  // Unavailable when the lists do not complete in time.
  Status Start();
  void Stop();

  // Scheduling attempts so far (for logs and tests).
  uint64_t attempts() const { return attempts_.load(); }

 private:
  class PodHandler;
  class NodeHandler;

  void Work();

  kube::KubeClient* const client_;
  PodScheduler* const scheduler_;
  const ContinuousOptions options_;
  SchedulingQueue queue_;
  std::unique_ptr<PodHandler> pod_handler_;
  std::unique_ptr<NodeHandler> node_handler_;
  std::unique_ptr<kube::Informer> pods_;
  std::unique_ptr<kube::Informer> nodes_;
  std::thread worker_;
  std::atomic<bool> stopping_{false};
  std::atomic<uint64_t> attempts_{0};
};

}  // namespace gcushare::scheduler

#endif  // GCUSHARE_TESTS_PEERS_SCHEDULER_CONTINUOUS_SCHEDULER_H_
