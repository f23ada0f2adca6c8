#include "tests/peers/dra_kubelet/pod_claims.h"

#include <algorithm>

namespace gcushare::peers::dra_kubelet {
namespace {

using nlohmann::json;

const json& Field(const json& object, const char* key) {
  static const json kNull;
  if (!object.is_object()) return kNull;
  auto found = object.find(key);
  return found == object.end() ? kNull : *found;
}

std::string Str(const json& object, const char* key) {
  const json& value = Field(object, key);
  return value.is_string() ? value.get<std::string>() : "";
}

const json& Items(const json& object, const char* key) {
  static const json kEmpty = json::array();
  const json& value = Field(object, key);
  return value.is_array() ? value : kEmpty;
}

std::string PodRef(const json& pod) {
  const json& meta = Field(pod, "metadata");
  return Str(meta, "namespace") + "/" + Str(meta, "name");
}

// A quantity that is not zero ("0", "0Gi", "0.0" are zero).
bool NonZeroQuantity(const json& value) {
  if (value.is_number()) return value.get<double>() != 0;
  if (!value.is_string()) return false;
  std::string text = value.get<std::string>();
  for (char c : text) {
    if (c >= '1' && c <= '9') return true;
    if (c != '0' && c != '.' && c != '+' && c != '-') break;
  }
  return false;
}

// Whether the container requests `resource` (requests, or limits that
// default them for extended resources).
bool RequestsResource(const json& container, const std::string& resource) {
  const json& resources = Field(container, "resources");
  for (const char* section : {"requests", "limits"}) {
    const json& value = Field(Field(resources, section), resource.c_str());
    if (!value.is_null()) return NonZeroQuantity(value);
  }
  return false;
}

}  // namespace

PodIdentity IdentifyPod(const json& pod) {
  const json& meta = Field(pod, "metadata");
  return PodIdentity{Str(meta, "namespace"), Str(meta, "name"),
                     Str(meta, "uid")};
}

std::vector<const json*> PodContainers(const json& pod) {
  std::vector<const json*> out;
  const json& spec = Field(pod, "spec");
  for (const char* list : {"initContainers", "containers"}) {
    for (const json& container : Items(spec, list)) out.push_back(&container);
  }
  return out;
}

std::vector<std::string> ContainerEnv(const json& container) {
  std::vector<std::string> env;
  for (const json& entry : Items(container, "env")) {
    if (!Field(entry, "value").is_string()) continue;
    env.push_back(Str(entry, "name") + "=" + Str(entry, "value"));
  }
  return env;
}

StatusOr<std::vector<PodClaimRef>> ResolvePodClaims(const json& pod) {
  std::vector<PodClaimRef> refs;
  const json& status = Field(pod, "status");
  for (const json& pod_claim : Items(Field(pod, "spec"), "resourceClaims")) {
    PodClaimRef ref;
    ref.pod_claim_name = Str(pod_claim, "name");
    std::string direct = Str(pod_claim, "resourceClaimName");
    std::string templ = Str(pod_claim, "resourceClaimTemplateName");
    if (!direct.empty()) {
      ref.claim_name = direct;
    } else if (!templ.empty()) {
      bool found = false;
      for (const json& entry : Items(status, "resourceClaimStatuses")) {
        if (Str(entry, "name") != ref.pod_claim_name) continue;
        found = true;
        std::string generated = Str(entry, "resourceClaimName");
        if (!generated.empty()) ref.claim_name = generated;
        ref.must_check_owner = true;
      }
      if (!found) {
        return NotFoundError("pod \"" + PodRef(pod) +
                             "\": ResourceClaim not created yet");
      }
    } else {
      return InvalidArgumentError(
          "pod \"" + PodRef(pod) + "\", spec.resourceClaim " +
          ref.pod_claim_name +
          ": neither resourceClaimName nor resourceClaimTemplateName is set");
    }
    refs.push_back(std::move(ref));
  }
  std::string extended =
      Str(Field(status, "extendedResourceClaimStatus"), "resourceClaimName");
  if (!extended.empty()) {
    PodClaimRef ref;
    ref.claim_name = extended;
    refs.push_back(std::move(ref));
  }
  return refs;
}

StatusOr<std::string> CheckClaimForPod(const json& pod, const json& claim,
                                       bool must_check_owner) {
  const json& pod_meta = Field(pod, "metadata");
  const json& meta = Field(claim, "metadata");
  std::string pod_uid = Str(pod_meta, "uid");
  std::string claim_name = Str(meta, "name");
  std::string claim_uid = Str(meta, "uid");
  if (must_check_owner) {
    bool owned = false;
    for (const json& owner : Items(meta, "ownerReferences")) {
      if (Field(owner, "controller") == json(true) &&
          Str(owner, "uid") == pod_uid) {
        owned = true;
      }
    }
    if (!owned) {
      return FailedPreconditionError("PodResourceClaim: ResourceClaim " +
                                     claim_name + " was not created for pod " +
                                     PodRef(pod) + " (pod is not owner)");
    }
  }
  const json& status = Field(claim, "status");
  bool reserved = false;
  for (const json& consumer : Items(status, "reservedFor")) {
    if (Str(consumer, "uid") == pod_uid &&
        Str(consumer, "resource") == "pods") {
      reserved = true;
    }
  }
  if (!reserved) {
    return FailedPreconditionError("pod " + Str(pod_meta, "name") + " (" +
                                   pod_uid +
                                   ") is not allowed to use ResourceClaim " +
                                   claim_name + " (" + claim_uid + ")");
  }
  if (!Field(status, "allocation").is_object()) {
    return FailedPreconditionError("ResourceClaim " + claim_name +
                                   ": not allocated");
  }
  return claim_uid;
}

StatusOr<std::vector<std::string>> AllocatedDrivers(const json& claim) {
  const json& allocation = Field(Field(claim, "status"), "allocation");
  if (!allocation.is_object()) {
    return FailedPreconditionError("ResourceClaim " +
                                   Str(Field(claim, "metadata"), "name") +
                                   ": not allocated");
  }
  std::vector<std::string> drivers;
  for (const json& result : Items(Field(allocation, "devices"), "results")) {
    std::string driver = Str(result, "driver");
    if (driver.empty()) {
      return InvalidArgumentError("ResourceClaim " +
                                  Str(Field(claim, "metadata"), "name") +
                                  ": allocation result without a driver");
    }
    drivers.push_back(driver);
  }
  std::sort(drivers.begin(), drivers.end());
  drivers.erase(std::unique(drivers.begin(), drivers.end()), drivers.end());
  return drivers;
}

StatusOr<std::vector<ContainerClaimRequest>> ContainerClaimRequests(
    const json& pod, const json& container) {
  GCUSHARE_ASSIGN_OR_RETURN(std::vector<PodClaimRef> refs,
                            ResolvePodClaims(pod));
  std::vector<ContainerClaimRequest> out;
  for (const json& use : Items(Field(container, "resources"), "claims")) {
    std::string pod_claim = Str(use, "name");
    for (const PodClaimRef& ref : refs) {
      if (ref.pod_claim_name.empty() || ref.pod_claim_name != pod_claim) {
        continue;
      }
      if (!ref.claim_name) break;  // No claim needed.
      out.push_back({*ref.claim_name, Str(use, "request")});
      break;
    }
  }
  const json& extended =
      Field(Field(pod, "status"), "extendedResourceClaimStatus");
  std::string extended_claim = Str(extended, "resourceClaimName");
  if (!extended_claim.empty()) {
    std::string name = Str(container, "name");
    for (const json& mapping : Items(extended, "requestMappings")) {
      if (Str(mapping, "containerName") != name) continue;
      if (!RequestsResource(container, Str(mapping, "resourceName"))) continue;
      out.push_back({extended_claim, Str(mapping, "requestName")});
    }
  }
  return out;
}

std::vector<std::string> CdiDevicesForRequest(const ClaimInfo& info,
                                              const std::string& request) {
  std::vector<std::string> ids;
  for (const auto& [driver, devices] : info.drivers) {
    for (const PreparedDevice& device : devices) {
      bool serves =
          request.empty() || device.request_names.empty() ||
          std::find(device.request_names.begin(), device.request_names.end(),
                    request) != device.request_names.end();
      if (!serves) continue;
      ids.insert(ids.end(), device.cdi_device_ids.begin(),
                 device.cdi_device_ids.end());
    }
  }
  return ids;
}

}  // namespace gcushare::peers::dra_kubelet
