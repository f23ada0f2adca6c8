// kube-scheduler 1.26's default-profile scoring in small: the Score plugins
// whose result differs between nodes for the pods the tests schedule, with
// their default weights:
//   NodeResourcesFit                  weight 1, LeastAllocated over cpu and
//                                     memory (weight 1 each)
//   NodeResourcesBalancedAllocation   weight 1, over cpu and memory
// Requests are the scheduler's "non-zero" requests: a container that asks
// for no cpu counts 100m, no memory 200 MiB. Each plugin scores 0..100 as an
// integer, like the real ones. The other default plugins (ImageLocality,
// InterPodAffinity, NodeAffinity, PodTopologySpread, TaintToleration,
// VolumeBinding) give every node the same score for pods without images
// in node status, affinities, spread constraints or PreferNoSchedule
// taints, and are left out.
//
// Pure functions; thread-safe. A quantity that cannot be read counts as 0.
#ifndef GCUSHARE_TESTS_PEERS_SCHEDULER_NODE_SCORE_H_
#define GCUSHARE_TESTS_PEERS_SCHEDULER_NODE_SCORE_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

namespace gcushare::scheduler {

// CPU in millicores and memory in bytes.
struct HostResources {
  int64_t cpu_milli = 0;
  int64_t memory = 0;
};

// "500m", "2", "1.5", "16Gi", "512Mi", "1G": the value in thousandths
// (scale_milli) or in units; 0 when unreadable.
int64_t ParseQuantity(std::string_view text, bool milli);

// The pod's non-zero cpu and memory request (app containers).
HostResources NonZeroRequests(const nlohmann::json& pod);

// The weighted sum of the default plugins' scores for placing a pod asking
// `pod` on `node`, whose pods already ask `requested`.
int64_t DefaultPluginScore(const HostResources& pod,
                           const HostResources& requested,
                           const nlohmann::json& node);

}  // namespace gcushare::scheduler

#endif  // GCUSHARE_TESTS_PEERS_SCHEDULER_NODE_SCORE_H_
