// One kube-scheduler scheduling cycle and binding cycle for one pod
// (schedule_one.go in small):
//   1. the in-tree filters (node_filter.h) on every node;
//   2. each interested extender's filter, in configuration order, on the
//      nodes still feasible (skipped once none are); errors fail the
//      attempt unless the extender is ignorable;
//   3. one feasible node is taken as is; with more, every interested
//      extender prioritizes and the node with the highest
//      sum(score * weight) * 10 (MaxNodeScore / MaxExtenderPriority) plus
//      the default profile's plugin scores (node_score.h: NodeResourcesFit
//      LeastAllocated and NodeResourcesBalancedAllocation, weight 1 each)
//      wins; a tie goes to the first of the best in feasible-list order (the
//      real scheduler picks one at random);
//   4. bind through the interested extender with a bindVerb, else a
//      Binding through the API; a Normal "Scheduled" event;
//   5. on failure a Warning "FailedScheduling" event and the pod condition
//      PodScheduled=False (reason Unschedulable when no node fits,
//      SchedulerError for errors) through a strategic merge patch of the
//      status subresource, written only when it changes.
// Pods bound here count as using their node's resources at once (the
// scheduler cache's "assumed" pods) until the snapshot shows them bound.
//
// Ownership: `client`, the extenders and options.clock are borrowed.
// Thread-safety: not thread-safe; one scheduling loop calls it.
// Failure: nothing throws; API errors while recording a failure are logged.
#ifndef GCUSHARE_TESTS_PEERS_SCHEDULER_POD_SCHEDULER_H_
#define GCUSHARE_TESTS_PEERS_SCHEDULER_POD_SCHEDULER_H_

#include <atomic>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/clock.h"
#include "kube/kube_client.h"
#include "tests/peers/scheduler/extender.h"
#include "tests/peers/scheduler/fit_error.h"
#include "tests/peers/scheduler/node_filter.h"

namespace gcushare::scheduler {

// The cluster as the scheduler's cache sees it.
struct Snapshot {
  std::vector<ObjectPtr> nodes;
  std::vector<ObjectPtr> pods;  // All pods; bound ones use node resources.
};

struct Decision {
  enum class Kind { kFeasible, kUnschedulable, kError };
  Kind kind = Kind::kError;
  std::string node;     // kFeasible: the chosen node.
  std::string message;  // Otherwise: the failure message.
  int evaluated_nodes = 0;
  int feasible_nodes = 0;
};

struct ScheduleResult {
  bool bound = false;
  std::string node;     // When bound.
  std::string reason;   // Otherwise: "Unschedulable" or "SchedulerError".
  std::string message;  // Otherwise: the condition and event message.
};

struct SchedulerOptions {
  MessageStyle style = MessageStyle::kCurrent;
  // Events' reportingInstance is "<schedulerName>-<host_name>", like
  // kube-scheduler's.
  std::string host_name = "localhost";
  base::Clock* clock = nullptr;  // Required; not owned.
};

class PodScheduler {
 public:
  PodScheduler(kube::KubeClient* client, std::vector<Extender*> extenders,
               SchedulerOptions options);

  // The scheduling cycle only: no writes to the API server (the extenders'
  // filter and prioritize are called).
  Decision Decide(const nlohmann::json& pod, const Snapshot& snapshot);

  // Decide, then bind or record the failure.
  ScheduleResult ScheduleOne(const nlohmann::json& pod,
                             const Snapshot& snapshot);

  size_t assumed_pods() const { return assumed_.size(); }

 private:
  struct Assumed {
    std::string node;
    ObjectPtr pod;
  };

  // Pods by the name of the node they use.
  using PodsByNode = std::map<std::string, std::vector<const nlohmann::json*>>;

  // Decide's steps.
  // The pods on each node but `pod`: bound ones, and the ones assumed here.
  PodsByNode PodsOnNodes(const nlohmann::json& pod,
                         const Snapshot& snapshot) const;
  // The in-tree filters: the nodes that pass; the others' statuses go to
  // `diagnosis`.
  std::vector<ObjectPtr> RunFilters(const nlohmann::json& pod,
                                    const std::vector<ObjectPtr>& nodes,
                                    const PodsByNode& on_node,
                                    Diagnosis* diagnosis) const;
  // The interested extenders' filters, narrowing `feasible`; the error of a
  // failing extender that is not ignorable.
  Status RunExtenderFilters(const nlohmann::json& pod,
                            std::vector<ObjectPtr>* feasible,
                            Diagnosis* diagnosis);
  // Of two or more feasible nodes, the one with the highest score.
  std::string BestNode(const nlohmann::json& pod,
                       const std::vector<ObjectPtr>& feasible,
                       const PodsByNode& on_node);

  Status Bind(const nlohmann::json& pod, const std::string& node);
  void RecordFailure(const nlohmann::json& pod, const std::string& reason,
                     const std::string& message);
  void RecordEvent(const nlohmann::json& pod, const std::string& type,
                   const std::string& reason, const std::string& action,
                   const std::string& message);
  void ForgetSettledAssumptions(const Snapshot& snapshot);

  kube::KubeClient* const client_;
  const std::vector<Extender*> extenders_;
  const SchedulerOptions options_;
  std::map<std::string, Assumed> assumed_;  // By pod uid.
  std::atomic<uint64_t> event_counter_{0};
};

}  // namespace gcushare::scheduler

#endif  // GCUSHARE_TESTS_PEERS_SCHEDULER_POD_SCHEDULER_H_
