// Which pods the scheduler takes, and in which order (kube-scheduler's
// PrioritySort queue): unassigned pods whose spec.schedulerName is one of
// ours ("" counts as default-scheduler), not being deleted, not finished,
// without scheduling gates; higher spec.priority first, then older
// creationTimestamp, then namespace/name.
//
// Pure functions; thread-safe.
#ifndef GCUSHARE_TESTS_PEERS_SCHEDULER_PENDING_PODS_H_
#define GCUSHARE_TESTS_PEERS_SCHEDULER_PENDING_PODS_H_

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "tests/peers/scheduler/extender_wire.h"

namespace gcushare::scheduler {

bool IsUnscheduledFor(const nlohmann::json& pod,
                      const std::set<std::string>& scheduler_names);

// The pods of `pods` to schedule, in queue order.
std::vector<ObjectPtr> PendingInQueueOrder(
    const std::vector<ObjectPtr>& pods,
    const std::set<std::string>& scheduler_names);

// "<namespace>/<name>"
std::string PodKey(const nlohmann::json& pod);

}  // namespace gcushare::scheduler

#endif  // GCUSHARE_TESTS_PEERS_SCHEDULER_PENDING_PODS_H_
