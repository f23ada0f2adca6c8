#include "tests/e2e/scenario.h"

#include "contract/names.h"
#include "kube/json_fields.h"
#include "tests/e2e/pods.h"

namespace gcushare::e2e {
namespace {

// The PodScheduled=False condition's message, or "".
std::string UnschedulableMessage(const nlohmann::json& pod) {
  const nlohmann::json* conditions =
      kube::FindPath(pod, {"status", "conditions"});
  if (conditions == nullptr || !conditions->is_array()) return "";
  for (const nlohmann::json& c : *conditions) {
    if (c.value("type", "") == "PodScheduled" &&
        c.value("status", "") == "False") {
      return c.value("message", "");
    }
  }
  return "";
}

}  // namespace

void ReadContainerSpec(const nlohmann::json& spec, PodOutcome* outcome) {
  const nlohmann::json* devices = kube::FindPath(spec, {"linux", "devices"});
  if (devices != nullptr && devices->is_array()) {
    for (const nlohmann::json& d : *devices) {
      outcome->devices.push_back(d.value("path", "") + " " +
                                 d.value("type", "") + " " +
                                 std::to_string(d.value("major", 0)) + ":" +
                                 std::to_string(d.value("minor", 0)));
    }
  }
  const nlohmann::json* env = kube::FindPath(spec, {"process", "env"});
  if (env != nullptr && env->is_array()) {
    for (const nlohmann::json& e : *env) {
      if (!e.is_string()) continue;
      const std::string entry = e.get<std::string>();
      const size_t eq = entry.find('=');
      if (eq == std::string::npos) continue;
      const std::string key = entry.substr(0, eq);
      if (key.rfind("ENFLAME_", 0) == 0 || key.rfind("GCUSHARE_", 0) == 0) {
        outcome->env[key] = entry.substr(eq + 1);
      }
    }
  }
}

StatusOr<PodOutcome> RunSharedPod(LocalCluster& cluster,
                                  const std::string& name, int64_t units,
                                  bool expect_pending,
                                  std::chrono::milliseconds timeout) {
  PodOutcome outcome;
  outcome.name = name;
  outcome.request_units = units;
  GCUSHARE_RETURN_IF_ERROR(cluster.CreatePod(MakeSharedPod(name, units)));
  if (expect_pending) {
    GCUSHARE_ASSIGN_OR_RETURN(nlohmann::json pod,
                              cluster.WaitForPod(
                                  "default", name,
                                  [](const nlohmann::json& p) {
                                    return !UnschedulableMessage(p).empty();
                                  },
                                  "was reported unschedulable", timeout));
    outcome.pending_reason = UnschedulableMessage(pod);
    return outcome;
  }
  GCUSHARE_ASSIGN_OR_RETURN(
      CreatedContainer container,
      cluster.WaitForContainer("default/" + name, "main", timeout));
  GCUSHARE_ASSIGN_OR_RETURN(nlohmann::json pod,
                            cluster.GetPod("default", name));
  outcome.node = kube::StringAt(pod, {"spec", "nodeName"});
  outcome.card =
      kube::StringAt(pod, {"metadata", "annotations", contract::kPodDeviceId});
  ReadContainerSpec(container.spec, &outcome);
  return outcome;
}

StatusOr<std::vector<PodOutcome>> PlayVendorScenario(LocalCluster& cluster) {
  std::vector<PodOutcome> outcomes;
  const std::pair<const char*, int64_t> kPods[] = {
      {"gcu-pod-1", 4}, {"gcu-pod-2", 8}, {"gcu-pod-3", 12}};
  for (const auto& [name, gib] : kPods) {
    GCUSHARE_ASSIGN_OR_RETURN(PodOutcome outcome,
                              RunSharedPod(cluster, name, gib));
    outcomes.push_back(std::move(outcome));
  }
  GCUSHARE_ASSIGN_OR_RETURN(
      PodOutcome pending,
      RunSharedPod(cluster, "gcu-pod-4", 20, /*expect_pending=*/true));
  outcomes.push_back(std::move(pending));
  return outcomes;
}

}  // namespace gcushare::e2e
