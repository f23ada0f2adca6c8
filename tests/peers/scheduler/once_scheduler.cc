#include "tests/peers/scheduler/once_scheduler.h"

#include <spdlog/spdlog.h>

#include <memory>
#include <utility>
#include <vector>

#include "kube/resource.h"
#include "tests/peers/scheduler/pending_pods.h"

namespace gcushare::scheduler {

StatusOr<Snapshot> ListSnapshot(kube::KubeClient* client) {
  Snapshot snapshot;
  GCUSHARE_ASSIGN_OR_RETURN(kube::ObjectList nodes,
                            client->List(kube::Resource::Nodes(), "", {}));
  GCUSHARE_ASSIGN_OR_RETURN(kube::ObjectList pods,
                            client->List(kube::Resource::Pods(), "", {}));
  for (nlohmann::json& node : nodes.items) {
    snapshot.nodes.push_back(
        std::make_shared<const nlohmann::json>(std::move(node)));
  }
  for (nlohmann::json& pod : pods.items) {
    snapshot.pods.push_back(
        std::make_shared<const nlohmann::json>(std::move(pod)));
  }
  return snapshot;
}

StatusOr<OnceSummary> ScheduleAllOnce(
    kube::KubeClient* client, PodScheduler* scheduler,
    const std::set<std::string>& scheduler_names) {
  GCUSHARE_ASSIGN_OR_RETURN(Snapshot initial, ListSnapshot(client));
  std::vector<std::string> keys;
  for (const ObjectPtr& pod :
       PendingInQueueOrder(initial.pods, scheduler_names)) {
    keys.push_back(PodKey(*pod));
  }
  OnceSummary summary;
  summary.pending = static_cast<int>(keys.size());
  spdlog::info("{} pod(s) to schedule", summary.pending);
  for (const std::string& key : keys) {
    GCUSHARE_ASSIGN_OR_RETURN(Snapshot snapshot, ListSnapshot(client));
    ObjectPtr current;
    for (const ObjectPtr& pod : snapshot.pods) {
      if (PodKey(*pod) == key) current = pod;
    }
    if (current == nullptr || !IsUnscheduledFor(*current, scheduler_names)) {
      // Deleted or bound by someone else meanwhile.
      spdlog::info("Pod {} is no longer pending; skipped", key);
      continue;
    }
    if (scheduler->ScheduleOne(*current, snapshot).bound) ++summary.bound;
  }
  return summary;
}

}  // namespace gcushare::scheduler
