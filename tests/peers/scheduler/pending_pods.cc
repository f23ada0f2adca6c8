#include "tests/peers/scheduler/pending_pods.h"

#include <algorithm>
#include <cstdint>

#include "tests/peers/scheduler/scheduler_config.h"

namespace gcushare::scheduler {
namespace {

const nlohmann::json& Child(const nlohmann::json& object, const char* key) {
  static const nlohmann::json* const kNull = new nlohmann::json();
  if (!object.is_object()) return *kNull;
  auto it = object.find(key);
  return it == object.end() ? *kNull : *it;
}

std::string StringOf(const nlohmann::json& value) {
  return value.is_string() ? value.get<std::string>() : std::string();
}

int64_t PriorityOf(const nlohmann::json& pod) {
  const nlohmann::json& priority = Child(Child(pod, "spec"), "priority");
  return priority.is_number_integer() ? priority.get<int64_t>() : 0;
}

}  // namespace

std::string PodKey(const nlohmann::json& pod) {
  const nlohmann::json& metadata = Child(pod, "metadata");
  return StringOf(Child(metadata, "namespace")) + "/" +
         StringOf(Child(metadata, "name"));
}

bool IsUnscheduledFor(const nlohmann::json& pod,
                      const std::set<std::string>& scheduler_names) {
  const nlohmann::json& spec = Child(pod, "spec");
  if (!StringOf(Child(spec, "nodeName")).empty()) return false;
  std::string scheduler = StringOf(Child(spec, "schedulerName"));
  if (scheduler.empty()) scheduler = std::string(kDefaultSchedulerName);
  if (scheduler_names.count(scheduler) == 0) return false;
  if (!Child(Child(pod, "metadata"), "deletionTimestamp").is_null()) {
    return false;
  }
  const std::string phase = StringOf(Child(Child(pod, "status"), "phase"));
  if (phase == "Succeeded" || phase == "Failed") return false;
  const nlohmann::json& gates = Child(spec, "schedulingGates");
  if (gates.is_array() && !gates.empty()) return false;
  return true;
}

std::vector<ObjectPtr> PendingInQueueOrder(
    const std::vector<ObjectPtr>& pods,
    const std::set<std::string>& scheduler_names) {
  std::vector<ObjectPtr> pending;
  for (const ObjectPtr& pod : pods) {
    if (IsUnscheduledFor(*pod, scheduler_names)) pending.push_back(pod);
  }
  std::stable_sort(
      pending.begin(), pending.end(),
      [](const ObjectPtr& a, const ObjectPtr& b) {
        const int64_t pa = PriorityOf(*a);
        const int64_t pb = PriorityOf(*b);
        if (pa != pb) return pa > pb;
        // RFC 3339 UTC timestamps sort as strings.
        const std::string ta =
            StringOf(Child(Child(*a, "metadata"), "creationTimestamp"));
        const std::string tb =
            StringOf(Child(Child(*b, "metadata"), "creationTimestamp"));
        if (ta != tb) return ta < tb;
        return PodKey(*a) < PodKey(*b);
      });
  return pending;
}

}  // namespace gcushare::scheduler
