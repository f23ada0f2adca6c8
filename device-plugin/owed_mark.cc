#include "device-plugin/owed_mark.h"

#include "contract/annotations.h"
#include "contract/pod_request.h"
#include "kube/json_fields.h"
#include "status/status.h"

namespace gcushare::deviceplugin {
namespace {

// Whether one containerStatuses entry shows a container that runs or ran:
// state running or terminated, lastState terminated, or started=true.
bool ContainerStarted(const nlohmann::json& status) {
  if (!status.is_object()) return false;
  for (std::string_view state : {"running", "terminated"}) {
    const nlohmann::json* s = kube::FindPath(status, {"state", state});
    if (s != nullptr && s->is_object()) return true;
  }
  const nlohmann::json* last =
      kube::FindPath(status, {"lastState", "terminated"});
  if (last != nullptr && last->is_object()) return true;
  const nlohmann::json* started = kube::FindPath(status, {"started"});
  return started != nullptr && started->is_boolean() && started->get<bool>();
}

}  // namespace

bool PodStarted(const nlohmann::json& pod) {
  const std::string phase = kube::StringAt(pod, {"status", "phase"});
  if (phase == "Running" || phase == "Succeeded") return true;
  for (std::string_view list : {"initContainerStatuses", "containerStatuses"}) {
    const nlohmann::json* statuses = kube::FindPath(pod, {"status", list});
    if (statuses == nullptr || !statuses->is_array()) continue;
    for (const nlohmann::json& status : *statuses) {
      if (ContainerStarted(status)) return true;
    }
  }
  return false;
}

std::optional<OwedMark> FindOwedMark(const nlohmann::json& pod,
                                     std::string_view node) {
  if (!pod.is_object()) return std::nullopt;
  if (kube::StringAt(pod, {"spec", "nodeName"}) != node) return std::nullopt;
  if (kube::FindPath(pod, {"metadata", "deletionTimestamp"}) != nullptr) {
    return std::nullopt;
  }
  const nlohmann::json* annotations =
      kube::FindPath(pod, {"metadata", "annotations"});
  if (annotations == nullptr) return std::nullopt;
  StatusOr<std::optional<contract::CardAssignment>> assignment =
      contract::DecodeAssignment(*annotations);
  if (!assignment.ok() || !assignment->has_value() || (*assignment)->assigned) {
    return std::nullopt;
  }
  StatusOr<contract::PodRequest> request = contract::ComputePodRequest(pod);
  if (!request.ok() || request->memory_units == 0) return std::nullopt;
  if (!PodStarted(pod)) return std::nullopt;
  return OwedMark{kube::NamespaceOf(pod), kube::NameOf(pod),
                  kube::StringAt(pod, {"metadata", "uid"})};
}

}  // namespace gcushare::deviceplugin
