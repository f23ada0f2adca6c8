#include "tests/peers/apiserver/dra_kinds.h"

#include <string>
#include <utility>

#include "tests/peers/apiserver/dra_dropped_fields.h"
#include "tests/peers/apiserver/dra_validation.h"
#include "tests/peers/apiserver/object_meta.h"
#include "tests/peers/apiserver/quantity.h"

namespace gcushare::apiserver {
namespace {

constexpr char kGroup[] = "resource.k8s.io";

ResourceKind Base(std::string resource, const std::string& kind,
                  bool namespaced) {
  ResourceKind k;
  k.group = kGroup;
  k.version = "v1";
  k.resource = std::move(resource);
  k.kind = kind;
  k.list_kind = kind + "List";
  k.namespaced = namespaced;
  k.merge_schema["metadata/finalizers"] = ListStrategy{};
  k.merge_schema["metadata/ownerReferences"] = ListStrategy{"uid"};
  k.zero_value = Json::object();
  k.zero_value["metadata"] = {{"creationTimestamp", nullptr}};
  k.zero_value["spec"] = Json::object();
  k.selectable_fields = [namespaced](const Json& object) {
    FieldSet f;
    f["metadata.name"] = MetaString(object, "name");
    if (namespaced) f["metadata.namespace"] = MetaString(object, "namespace");
    return f;
  };
  return k;
}

std::string SpecString(const Json& object, const char* field) {
  auto spec = object.find("spec");
  if (spec == object.end() || !spec->is_object()) return "";
  auto it = spec->find(field);
  return it != spec->end() && it->is_string() ? it->get<std::string>() : "";
}

// The v1 defaults of a request body (exactly or a subrequest).
void DefaultRequestBody(Json& body) {
  if (!body.is_object()) return;
  if (!body.contains("allocationMode") || body["allocationMode"].is_null()) {
    body["allocationMode"] = "ExactCount";
  }
  if (body["allocationMode"] == "ExactCount" &&
      (!body.contains("count") || body["count"].is_null())) {
    body["count"] = 1;
  }
}

void DefaultClaimSpec(Json* spec) {
  if (spec == nullptr || !spec->is_object()) return;
  auto devices = spec->find("devices");
  if (devices == spec->end() || !devices->is_object()) return;
  auto requests = devices->find("requests");
  if (requests == devices->end() || !requests->is_array()) return;
  for (Json& request : *requests) {
    if (!request.is_object()) continue;
    auto exactly = request.find("exactly");
    if (exactly != request.end()) DefaultRequestBody(*exactly);
    auto first = request.find("firstAvailable");
    if (first != request.end() && first->is_array()) {
      for (Json& sub : *first) DefaultRequestBody(sub);
    }
  }
}

Json* ChildObject(Json& obj, const char* key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

// Quantity checks of the decoder: the first malformed quantity's error.
std::string QuantityError(const Json* v) {
  if (v == nullptr || v->is_null() || v->is_number()) return "";
  return QuantitySyntaxError(v->is_string() ? v->get<std::string>()
                                            : v->dump());
}

const Json* At(const Json& obj, const char* key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  return it == obj.end() || it->is_null() ? nullptr : &*it;
}

// Every value of a map of quantities.
std::string QuantityMapError(const Json* map) {
  if (map == nullptr || !map->is_object()) return "";
  for (const Json& v : *map) {
    if (std::string why = QuantityError(&v); !why.empty()) return why;
  }
  return "";
}

std::string SliceDecodeError(const Json& slice) {
  const Json* spec = At(slice, "spec");
  const Json* devices = spec == nullptr ? nullptr : At(*spec, "devices");
  if (devices == nullptr || !devices->is_array()) return "";
  for (const Json& device : *devices) {
    const Json* capacity = At(device, "capacity");
    if (capacity == nullptr || !capacity->is_object()) continue;
    for (const Json& c : *capacity) {
      std::string why = QuantityError(At(c, "value"));
      const Json* policy = At(c, "requestPolicy");
      if (why.empty() && policy != nullptr) {
        why = QuantityError(At(*policy, "default"));
        const Json* values = At(*policy, "validValues");
        if (values != nullptr && values->is_array()) {
          for (const Json& v : *values) {
            if (why.empty()) why = QuantityError(&v);
          }
        }
        if (const Json* range = At(*policy, "validRange"); range != nullptr) {
          for (const char* key : {"min", "max", "step"}) {
            if (why.empty()) why = QuantityError(At(*range, key));
          }
        }
      }
      if (!why.empty()) return why;
    }
  }
  return "";
}

std::string ClaimSpecDecodeError(const Json* spec) {
  const Json* devices = spec == nullptr ? nullptr : At(*spec, "devices");
  const Json* requests =
      devices == nullptr ? nullptr : At(*devices, "requests");
  if (requests == nullptr || !requests->is_array()) return "";
  auto body_error = [](const Json* body) -> std::string {
    const Json* capacity = body == nullptr ? nullptr : At(*body, "capacity");
    return capacity == nullptr ? ""
                               : QuantityMapError(At(*capacity, "requests"));
  };
  for (const Json& request : *requests) {
    if (std::string why = body_error(At(request, "exactly")); !why.empty()) {
      return why;
    }
    const Json* first = At(request, "firstAvailable");
    if (first == nullptr || !first->is_array()) continue;
    for (const Json& sub : *first) {
      if (std::string why = body_error(&sub); !why.empty()) return why;
    }
  }
  return "";
}

std::string ClaimDecodeError(const Json& claim) {
  if (std::string why = ClaimSpecDecodeError(At(claim, "spec")); !why.empty()) {
    return why;
  }
  const Json* status = At(claim, "status");
  const Json* allocation =
      status == nullptr ? nullptr : At(*status, "allocation");
  const Json* devices =
      allocation == nullptr ? nullptr : At(*allocation, "devices");
  const Json* results = devices == nullptr ? nullptr : At(*devices, "results");
  if (results == nullptr || !results->is_array()) return "";
  for (const Json& result : *results) {
    if (std::string why = QuantityMapError(At(result, "consumedCapacity"));
        !why.empty()) {
      return why;
    }
  }
  return "";
}

}  // namespace

ResourceKind ResourceSliceKind(const FeatureGates& gates) {
  ResourceKind k = Base("resourceslices", "ResourceSlice", false);
  k.has_generation = true;
  k.zero_value["spec"] = {
      {"driver", ""},
      {"pool", {{"name", ""}, {"generation", 0}, {"resourceSliceCount", 0}}}};
  k.selectable_fields = [](const Json& slice) {
    FieldSet f;
    f["metadata.name"] = MetaString(slice, "name");
    f["spec.nodeName"] = SpecString(slice, "nodeName");
    f["spec.driver"] = SpecString(slice, "driver");
    return f;
  };
  k.decode_error = SliceDecodeError;
  k.prepare_create = [gates](Json& slice) {
    DropDisabledSliceFields(gates, nullptr, slice);
  };
  k.prepare_update = [gates](const Json& old, std::string_view, Json& updated) {
    DropDisabledSliceFields(gates, &old, updated);
  };
  k.validate_create = [](const Json& slice) {
    return ValidateResourceSlice(slice, nullptr);
  };
  k.validate_update = [](const Json& old, std::string_view,
                         const Json& updated) {
    return ValidateResourceSlice(updated, &old);
  };
  return k;
}

ResourceKind ResourceClaimKind(const FeatureGates& gates) {
  ResourceKind k = Base("resourceclaims", "ResourceClaim", true);
  k.has_status = true;
  k.zero_value["spec"] = {{"devices", Json::object()}};
  k.zero_value["status"] = Json::object();
  k.merge_schema["status/reservedFor"] = ListStrategy{"uid"};
  k.decode_error = ClaimDecodeError;
  k.prepare_create = [gates](Json& claim) {
    claim["status"] = Json::object();
    DefaultClaimSpec(ChildObject(claim, "spec"));
    DropDisabledClaimFields(gates, nullptr, claim);
  };
  k.prepare_update = [gates](const Json& old, std::string_view subresource,
                             Json& updated) {
    if (subresource == "status") {
      // metav1.ResetObjectMetaForStatus.
      const auto old_meta = old.find("metadata");
      Json& meta = updated["metadata"];
      for (const char* field :
           {"labels", "annotations", "finalizers", "ownerReferences",
            "generation", "deletionTimestamp", "selfLink"}) {
        if (old_meta != old.end() && old_meta->is_object() &&
            old_meta->contains(field)) {
          meta[field] = (*old_meta)[field];
        } else {
          meta.erase(field);
        }
      }
    } else {
      DefaultClaimSpec(ChildObject(updated, "spec"));
    }
    DropDisabledClaimFields(gates, &old, updated);
  };
  k.validate_create = [](const Json& claim) {
    return ValidateResourceClaim(claim, nullptr);
  };
  k.validate_update = [](const Json& old, std::string_view subresource,
                         const Json& updated) {
    if (subresource == "status") {
      return ValidateResourceClaimStatus(updated, old);
    }
    return ValidateResourceClaim(updated, &old);
  };
  return k;
}

ResourceKind ResourceClaimTemplateKind(const FeatureGates& gates) {
  ResourceKind k =
      Base("resourceclaimtemplates", "ResourceClaimTemplate", true);
  k.zero_value["spec"] = {{"metadata", {{"creationTimestamp", nullptr}}},
                          {"spec", {{"devices", Json::object()}}}};
  k.decode_error = [](const Json& tmpl) {
    const Json* spec = At(tmpl, "spec");
    return ClaimSpecDecodeError(spec == nullptr ? nullptr : At(*spec, "spec"));
  };
  k.prepare_create = [gates](Json& tmpl) {
    Json* spec = ChildObject(tmpl, "spec");
    if (spec != nullptr) DefaultClaimSpec(ChildObject(*spec, "spec"));
    DropDisabledClaimTemplateFields(gates, nullptr, tmpl);
  };
  k.prepare_update = [gates](const Json& old, std::string_view, Json& updated) {
    Json* spec = ChildObject(updated, "spec");
    if (spec != nullptr) DefaultClaimSpec(ChildObject(*spec, "spec"));
    DropDisabledClaimTemplateFields(gates, &old, updated);
  };
  k.validate_create = [](const Json& tmpl) {
    return ValidateResourceClaimTemplate(tmpl, nullptr);
  };
  k.validate_update = [](const Json& old, std::string_view,
                         const Json& updated) {
    return ValidateResourceClaimTemplate(updated, &old);
  };
  return k;
}

ResourceKind DeviceClassKind(const FeatureGates& gates) {
  ResourceKind k = Base("deviceclasses", "DeviceClass", false);
  k.has_generation = true;
  k.generation_after_prepare = true;
  k.prepare_create = [gates](Json& device_class) {
    DropDisabledDeviceClassFields(gates, nullptr, device_class);
  };
  k.prepare_update = [gates](const Json& old, std::string_view, Json& updated) {
    DropDisabledDeviceClassFields(gates, &old, updated);
  };
  k.validate_create = ValidateDeviceClass;
  k.validate_update = [](const Json&, std::string_view, const Json& updated) {
    return ValidateDeviceClass(updated);
  };
  return k;
}

std::vector<ResourceKind> DraKinds(const FeatureGates& gates) {
  std::vector<ResourceKind> kinds;
  kinds.push_back(ResourceSliceKind(gates));
  kinds.push_back(ResourceClaimKind(gates));
  kinds.push_back(ResourceClaimTemplateKind(gates));
  kinds.push_back(DeviceClassKind(gates));
  return kinds;
}

}  // namespace gcushare::apiserver
