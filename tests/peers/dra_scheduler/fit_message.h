// The PodScheduled=False message kube-scheduler writes when a pod with
// ResourceClaims fits no node: framework.FitError.Error() followed by the
// PostFilter messages of DynamicResources and DefaultPreemption:
//
//   0/2 nodes are available: 2 cannot allocate all claims. still not
//   schedulable, preemption: 0/2 nodes are available: 2 Preemption is not
//   helpful for scheduling.
//
// The dynamicresources plugin rejects nodes with UnschedulableAndUnresolvable
// ("cannot allocate all claims", "resourceclaim not available on the node"),
// so preemption finds every node "not helpful". A PreFilter rejection
// (a missing claim) replaces the per-node histogram with its message, and
// DynamicResources then has no claims to deallocate:
//
//   0/1 nodes are available: resourceclaim.resource.k8s.io "c" not found.
//   no new claims to deallocate, preemption: 0/1 nodes are available: 1
//   Preemption is not helpful for scheduling.
//
// Pure functions; thread-safe.
#ifndef GCUSHARE_TESTS_PEERS_DRA_SCHEDULER_FIT_MESSAGE_H_
#define GCUSHARE_TESTS_PEERS_DRA_SCHEDULER_FIT_MESSAGE_H_

#include <map>
#include <string>

namespace gcushare::dra_scheduler {

inline constexpr char kCannotAllocate[] = "cannot allocate all claims";
inline constexpr char kNotAvailableOnNode[] =
    "resourceclaim not available on the node";

// `reasons`: reason -> number of nodes rejected for it.
std::string FilterFailureMessage(int num_nodes,
                                 const std::map<std::string, int>& reasons);

// A PreFilter rejection with `message`.
std::string PreFilterFailureMessage(int num_nodes, const std::string& message);

}  // namespace gcushare::dra_scheduler

#endif  // GCUSHARE_TESTS_PEERS_DRA_SCHEDULER_FIT_MESSAGE_H_
