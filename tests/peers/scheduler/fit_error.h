// The message kube-scheduler writes (FailedScheduling event, PodScheduled
// condition) when no node fits a pod: framework.FitError.Error() followed
// by the PostFilter plugins' messages.
//
//   0/3 nodes are available: 1 node(s) didn't match Pod's node
//   affinity/selector, 2 Insufficient enflame.com/gcu-memory. no new claims
//   to deallocate, preemption: 0/3 nodes are available: 1 Preemption is not
//   helpful for scheduling, 2 No preemption victims found for incoming pod.
//
// Each node's reasons are counted, rendered "<count> <reason>", sorted as
// strings and joined with ", ". The preemption part follows DefaultPreemption:
// a pod with preemptionPolicy Never is "not eligible"; otherwise nodes whose
// status is UnschedulableAndUnresolvable (or that have none) are "Preemption
// is not helpful for scheduling" and the others are "No preemption victims
// found for incoming pod" — the stand-in never evicts anything, so it
// reports what the real one reports when no lower-priority pod would make
// room. MessageStyle selects the release (node_filter.h).
//
// Pure functions; thread-safe.
#ifndef GCUSHARE_TESTS_PEERS_SCHEDULER_FIT_ERROR_H_
#define GCUSHARE_TESTS_PEERS_SCHEDULER_FIT_ERROR_H_

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/peers/scheduler/node_filter.h"

namespace gcushare::scheduler {

struct Diagnosis {
  int num_all_nodes = 0;
  // Every node that was filtered out, with why. Nodes an extender dropped
  // without naming them have no entry (like in kube-scheduler).
  std::map<std::string, NodeStatus> statuses;
};

// "0/<n> nodes are available: <histogram>." without any PostFilter part.
std::string FitErrorText(const Diagnosis& diagnosis);

// The full message, PostFilter part included.
std::string UnschedulableMessage(const nlohmann::json& pod,
                                 const Diagnosis& diagnosis,
                                 MessageStyle style);

}  // namespace gcushare::scheduler

#endif  // GCUSHARE_TESTS_PEERS_SCHEDULER_FIT_ERROR_H_
