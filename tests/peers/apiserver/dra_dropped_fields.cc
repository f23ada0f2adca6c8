#include "tests/peers/apiserver/dra_dropped_fields.h"

namespace gcushare::apiserver {
namespace {

Json* Child(Json& obj, const char* key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return nullptr;
  return &*it;
}

const Json* Child(const Json& obj, const char* key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return nullptr;
  return &*it;
}

// Calls `f` on each element of the array at obj[key] (if any).
template <typename J, typename F>
void ForEach(J& obj, const char* key, F f) {
  auto* array = Child(obj, key);
  if (array == nullptr || !array->is_array()) return;
  for (auto& element : *array) f(element);
}

// Whether `f` returns true for some request (exactly) or subrequest of a
// claim spec; or, with `drop`, calls it on each to strip fields.
template <typename J, typename F>
void ForEachRequestBody(J& claim_spec, F f) {
  auto* devices = Child(claim_spec, "devices");
  if (devices == nullptr) return;
  ForEach(*devices, "requests", [&](auto& request) {
    if (auto* exactly = Child(request, "exactly"); exactly != nullptr) {
      f(*exactly);
    }
    ForEach(request, "firstAvailable", [&](auto& sub) { f(sub); });
  });
}

bool ClaimSpecUsesCapacity(const Json* claim_spec) {
  if (claim_spec == nullptr) return false;
  bool used = false;
  ForEachRequestBody(*claim_spec, [&](const Json& body) {
    if (Child(body, "capacity") != nullptr) used = true;
  });
  return used;
}

void DropClaimSpecCapacity(Json& claim_spec) {
  ForEachRequestBody(claim_spec, [](Json& body) { body.erase("capacity"); });
}

bool ClaimStatusUsesShares(const Json* claim) {
  if (claim == nullptr) return false;
  const Json* status = Child(*claim, "status");
  if (status == nullptr) return false;
  bool used = false;
  if (const Json* allocation = Child(*status, "allocation")) {
    if (const Json* devices = Child(*allocation, "devices")) {
      ForEach(*devices, "results", [&](const Json& result) {
        if (Child(result, "shareID") != nullptr ||
            Child(result, "consumedCapacity") != nullptr) {
          used = true;
        }
      });
    }
  }
  ForEach(*status, "devices", [&](const Json& device) {
    if (Child(device, "shareID") != nullptr) used = true;
  });
  return used;
}

}  // namespace

void DropDisabledSliceFields(const FeatureGates& gates, const Json* old,
                             Json& slice) {
  if (gates.dra_consumable_capacity) return;
  if (old != nullptr) {
    bool used = false;
    if (const Json* spec = Child(*old, "spec")) {
      ForEach(*spec, "devices", [&](const Json& device) {
        if (Child(device, "allowMultipleAllocations") != nullptr) used = true;
        if (const Json* capacity = Child(device, "capacity");
            capacity != nullptr && capacity->is_object()) {
          for (const Json& c : *capacity) {
            if (Child(c, "requestPolicy") != nullptr) used = true;
          }
        }
      });
    }
    if (used) return;
  }
  Json* spec = Child(slice, "spec");
  if (spec == nullptr) return;
  ForEach(*spec, "devices", [](Json& device) {
    if (!device.is_object()) return;
    device.erase("allowMultipleAllocations");
    if (Json* capacity = Child(device, "capacity");
        capacity != nullptr && capacity->is_object()) {
      for (Json& c : *capacity) {
        if (c.is_object()) c.erase("requestPolicy");
      }
    }
  });
}

void DropDisabledClaimFields(const FeatureGates& gates, const Json* old,
                             Json& claim) {
  if (gates.dra_consumable_capacity) return;
  const Json* old_spec = old == nullptr ? nullptr : Child(*old, "spec");
  const bool in_use =
      ClaimSpecUsesCapacity(old_spec) || ClaimStatusUsesShares(old);
  if (in_use) return;
  if (Json* spec = Child(claim, "spec")) DropClaimSpecCapacity(*spec);
  Json* status = Child(claim, "status");
  if (status == nullptr) return;
  if (Json* allocation = Child(*status, "allocation")) {
    if (Json* devices = Child(*allocation, "devices")) {
      ForEach(*devices, "results", [](Json& result) {
        if (!result.is_object()) return;
        result.erase("shareID");
        result.erase("consumedCapacity");
      });
    }
  }
  ForEach(*status, "devices", [](Json& device) {
    if (device.is_object()) device.erase("shareID");
  });
}

void DropDisabledClaimTemplateFields(const FeatureGates& gates, const Json* old,
                                     Json& tmpl) {
  if (gates.dra_consumable_capacity) return;
  auto inner = [](const Json& t) -> const Json* {
    const Json* spec = Child(t, "spec");
    return spec == nullptr ? nullptr : Child(*spec, "spec");
  };
  if (old != nullptr && ClaimSpecUsesCapacity(inner(*old))) return;
  Json* spec = Child(tmpl, "spec");
  Json* claim_spec = spec == nullptr ? nullptr : Child(*spec, "spec");
  if (claim_spec != nullptr) DropClaimSpecCapacity(*claim_spec);
}

void DropDisabledDeviceClassFields(const FeatureGates& gates, const Json* old,
                                   Json& device_class) {
  if (gates.dra_extended_resource) return;
  if (old != nullptr) {
    const Json* spec = Child(*old, "spec");
    if (spec != nullptr && Child(*spec, "extendedResourceName") != nullptr) {
      return;
    }
  }
  Json* spec = Child(device_class, "spec");
  if (spec != nullptr && spec->is_object()) spec->erase("extendedResourceName");
}

}  // namespace gcushare::apiserver
