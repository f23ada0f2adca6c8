// kube-scheduler's own filtering in small: the default Filter plugins that
// matter for GCU pods, run per node in the default plugin order, stopping
// at the first plugin that rejects the node (like RunFilterPlugins):
//   NodeUnschedulable  spec.unschedulable, unless the pod tolerates
//                      node.kubernetes.io/unschedulable:NoSchedule
//   TaintToleration    NoSchedule and NoExecute taints the pod does not
//                      tolerate
//   NodeAffinity       spec.nodeSelector and required node affinity
//                      (matchExpressions and matchFields on metadata.name)
//   NodeResourcesFit   extended resources only: node status.allocatable
//                      minus the requests of the pods already on the node
//                      (cpu, memory, pods and ephemeral storage are not
//                      checked)
// with the reason strings and status codes of the real plugins.
//
// Pure functions; thread-safe.
#ifndef GCUSHARE_TESTS_PEERS_SCHEDULER_NODE_FILTER_H_
#define GCUSHARE_TESTS_PEERS_SCHEDULER_NODE_FILTER_H_

#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace gcushare::scheduler {

// Which kube-scheduler release's message texts to reproduce.
enum class MessageStyle {
  // Kubernetes 1.34 and later (the default): "node(s) had untolerated
  // taint(s)", the DynamicResources "no new claims to deallocate" note
  // before the preemption part, one full stop at the end.
  kCurrent,
  // Kubernetes 1.26, as in tests/conformance/*.outcome.yaml: the taint named
  // in the reason, and the preemption part ending in "..".
  kV126,
};

// framework.Code, reduced to what filtering produces.
enum class FilterCode {
  kSuccess,
  kUnschedulable,                 // Preemption might help.
  kUnschedulableAndUnresolvable,  // Preemption cannot help.
};

struct NodeStatus {
  FilterCode code = FilterCode::kSuccess;
  std::vector<std::string> reasons;

  bool ok() const { return code == FilterCode::kSuccess; }
};

// Extended-resource amounts by name, e.g. {"enflame.com/gcu-memory": 4}.
using ResourceAmounts = std::map<std::string, int64_t, std::less<>>;

// The pod's effective request of every extended resource, as the scheduler
// computes it: max(sum of app containers + restartable init containers,
// the largest init container plus the restartable ones started before it),
// plus spec.overhead. Each container's amount comes from requests, else
// limits. Quantities that are not whole numbers count as 0.
ResourceAmounts PodRequests(const nlohmann::json& pod);

// What the pods on the node request; pods that finished (Succeeded,
// Failed) do not count.
ResourceAmounts NodeRequested(const std::vector<const nlohmann::json*>& pods);

struct FilterOptions {
  MessageStyle style = MessageStyle::kCurrent;
  // Resources NodeResourcesFit does not check (managedResources with
  // ignoredByScheduler: true).
  std::function<bool(std::string_view)> ignored_resource;
};

// Runs the filters for `pod` on `node`, whose pods already request
// `requested`.
NodeStatus FilterNode(const nlohmann::json& pod, const nlohmann::json& node,
                      const ResourceAmounts& requested,
                      const FilterOptions& options);

}  // namespace gcushare::scheduler

#endif  // GCUSHARE_TESTS_PEERS_SCHEDULER_NODE_FILTER_H_
