#include "tests/peers/dra_scheduler/claim_factory.h"

#include <algorithm>
#include <map>
#include <set>

#include "contract/quantity.h"
#include "kube/json_fields.h"

namespace gcushare::dra_scheduler {
namespace {

nlohmann::json OwnerReference(const nlohmann::json& pod) {
  return nlohmann::json::array(
      {{{"apiVersion", "v1"},
        {"kind", "Pod"},
        {"name", kube::NameOf(pod)},
        {"uid", kube::StringAt(pod, {"metadata", "uid"})},
        {"controller", true},
        {"blockOwnerDeletion", true}}});
}

bool ControlledBy(const nlohmann::json& object, const nlohmann::json& pod) {
  const nlohmann::json* owners =
      kube::FindPath(object, {"metadata", "ownerReferences"});
  if (owners == nullptr || !owners->is_array()) return false;
  const std::string uid = kube::StringAt(pod, {"metadata", "uid"});
  for (const nlohmann::json& owner : *owners) {
    if (kube::StringAt(owner, {"kind"}) == "Pod" &&
        kube::StringAt(owner, {"uid"}) == uid && owner.is_object() &&
        owner.value("controller", false)) {
      return true;
    }
  }
  return false;
}

std::string Annotation(const nlohmann::json& object, const std::string& key) {
  const nlohmann::json* annotations =
      kube::FindPath(object, {"metadata", "annotations"});
  if (annotations == nullptr || !annotations->is_object()) return "";
  auto it = annotations->find(key);
  return it != annotations->end() && it->is_string() ? it->get<std::string>()
                                                     : "";
}

// Each container's effective requests: requests, completed from limits.
std::map<std::string, std::string> EffectiveRequests(
    const nlohmann::json& container) {
  std::map<std::string, std::string> out;
  for (const char* kind : {"limits", "requests"}) {
    const nlohmann::json* values =
        kube::FindPath(container, {"resources", kind});
    if (values == nullptr || !values->is_object()) continue;
    for (const auto& [name, value] : values->items()) {
      if (value.is_string()) {
        out[name] = value.get<std::string>();
      } else if (value.is_number_integer()) {
        out[name] = std::to_string(value.get<int64_t>());
      }
    }
  }
  return out;
}

}  // namespace

std::string TemplateClaimGenerateName(const std::string& pod_name,
                                      const std::string& pod_claim) {
  std::string generate_name = pod_name + "-" + pod_claim + "-";
  constexpr size_t kMaxBaseLen = 57;
  if (generate_name.size() > kMaxBaseLen) {
    const size_t total = generate_name.size();
    generate_name = pod_name.substr(0, pod_name.size() * kMaxBaseLen / total) +
                    "-" +
                    pod_claim.substr(0, pod_claim.size() * kMaxBaseLen / total);
  }
  return generate_name;
}

nlohmann::json ClaimFromTemplate(const nlohmann::json& pod,
                                 const std::string& pod_claim,
                                 const nlohmann::json& claim_template) {
  nlohmann::json annotations = nlohmann::json::object();
  const nlohmann::json* template_annotations =
      kube::FindPath(claim_template, {"spec", "metadata", "annotations"});
  if (template_annotations != nullptr && template_annotations->is_object()) {
    annotations = *template_annotations;
  }
  annotations[kPodClaimNameAnnotation] = pod_claim;
  nlohmann::json metadata = {
      {"generateName", TemplateClaimGenerateName(kube::NameOf(pod), pod_claim)},
      {"namespace", kube::NamespaceOf(pod)},
      {"ownerReferences", OwnerReference(pod)},
      {"annotations", annotations}};
  const nlohmann::json* labels =
      kube::FindPath(claim_template, {"spec", "metadata", "labels"});
  if (labels != nullptr && labels->is_object()) metadata["labels"] = *labels;
  const nlohmann::json* spec = kube::FindPath(claim_template, {"spec", "spec"});
  return {{"apiVersion", "resource.k8s.io/v1"},
          {"kind", "ResourceClaim"},
          {"metadata", metadata},
          {"spec", spec != nullptr ? *spec : nlohmann::json::object()}};
}

bool IsTemplateClaimOf(const nlohmann::json& claim, const nlohmann::json& pod,
                       const std::string& pod_claim) {
  return ControlledBy(claim, pod) &&
         Annotation(claim, kPodClaimNameAnnotation) == pod_claim;
}

StatusOr<std::optional<ExtendedResourceClaim>> BuildExtendedResourceClaim(
    const nlohmann::json& pod, const std::vector<nlohmann::json>& classes) {
  // Resource name -> class; explicit names win over the implicit ones, and
  // among classes naming the same resource the first by name.
  std::map<std::string, std::string> class_of;
  std::vector<const nlohmann::json*> sorted;
  sorted.reserve(classes.size());
  for (const nlohmann::json& device_class : classes) {
    sorted.push_back(&device_class);
  }
  std::sort(sorted.begin(), sorted.end(),
            [](const nlohmann::json* a, const nlohmann::json* b) {
              return kube::NameOf(*a) < kube::NameOf(*b);
            });
  for (const nlohmann::json* device_class : sorted) {
    const std::string name =
        kube::StringAt(*device_class, {"spec", "extendedResourceName"});
    if (!name.empty()) class_of.emplace(name, kube::NameOf(*device_class));
  }
  for (const nlohmann::json* device_class : sorted) {
    class_of.emplace(
        kImplicitExtendedResourcePrefix + kube::NameOf(*device_class),
        kube::NameOf(*device_class));
  }

  std::vector<nlohmann::json> containers;
  for (const char* list : {"initContainers", "containers"}) {
    const nlohmann::json* items = kube::FindPath(pod, {"spec", list});
    if (items == nullptr || !items->is_array()) continue;
    for (const nlohmann::json& container : *items)
      containers.push_back(container);
  }
  std::vector<std::map<std::string, std::string>> requests;
  std::set<std::string> wanted;
  for (const nlohmann::json& container : containers) {
    requests.push_back(EffectiveRequests(container));
    for (const auto& [name, value] : requests.back()) {
      if (class_of.count(name) != 0) wanted.insert(name);
    }
  }

  nlohmann::json device_requests = nlohmann::json::array();
  nlohmann::json mappings = nlohmann::json::array();
  for (const std::string& resource : wanted) {
    for (size_t i = 0; i < containers.size(); ++i) {
      auto it = requests[i].find(resource);
      if (it == requests[i].end()) continue;
      auto count = contract::ParseIntegerQuantity(it->second);
      if (!count.ok()) {
        return InvalidArgumentError(
            "container " + kube::StringAt(containers[i], {"name"}) + ": " +
            resource + ": " + count.status().message());
      }
      if (*count == 0) continue;
      const size_t index = static_cast<size_t>(
          std::distance(requests[i].begin(), it));  // Sorted names.
      const std::string request_name = "container-" + std::to_string(i) +
                                       "-request-" + std::to_string(index);
      device_requests.push_back({{"name", request_name},
                                 {"exactly",
                                  {{"deviceClassName", class_of[resource]},
                                   {"allocationMode", "ExactCount"},
                                   {"count", *count}}}});
      mappings.push_back(
          {{"containerName", kube::StringAt(containers[i], {"name"})},
           {"resourceName", resource},
           {"requestName", request_name}});
    }
  }
  if (device_requests.empty()) return std::optional<ExtendedResourceClaim>();
  ExtendedResourceClaim out;
  out.claim = {
      {"apiVersion", "resource.k8s.io/v1"},
      {"kind", "ResourceClaim"},
      {"metadata",
       {{"generateName", kube::NameOf(pod) + "-extended-resources-"},
        {"namespace", kube::NamespaceOf(pod)},
        {"ownerReferences", OwnerReference(pod)},
        {"annotations", {{kExtendedResourceClaimAnnotation, "true"}}}}},
      {"spec", {{"devices", {{"requests", device_requests}}}}}};
  out.request_mappings = mappings;
  return std::optional<ExtendedResourceClaim>(std::move(out));
}

bool IsExtendedResourceClaimOf(const nlohmann::json& claim,
                               const nlohmann::json& pod) {
  return ControlledBy(claim, pod) &&
         Annotation(claim, kExtendedResourceClaimAnnotation) == "true";
}

}  // namespace gcushare::dra_scheduler
