#include "dra-driver/slice_plan.h"

#include <algorithm>
#include <map>
#include <string>

#include "dra-driver/slice_diff.h"
#include "kube/json_fields.h"

namespace gcushare::dra {
namespace {

using kube::FindPath;

std::string PoolName(const nlohmann::json& slice) {
  return kube::StringAt(slice, {"spec", "pool", "name"});
}

int64_t Generation(const nlohmann::json& slice) {
  const nlohmann::json* generation =
      FindPath(slice, {"spec", "pool", "generation"});
  return generation != nullptr && generation->is_number_integer()
             ? generation->get<int64_t>()
             : 0;
}

// The first device's name, or "" for a slice without devices.
std::string FirstDevice(const nlohmann::json& slice) {
  const nlohmann::json* devices = FindPath(slice, {"spec", "devices"});
  if (devices == nullptr || !devices->is_array() || devices->empty()) {
    return "";
  }
  const nlohmann::json* name = FindPath((*devices)[0], {"name"});
  return name != nullptr && name->is_string() ? name->get<std::string>() : "";
}

nlohmann::json WithGeneration(nlohmann::json slice, int64_t generation) {
  slice["spec"]["pool"]["generation"] = generation;
  return slice;
}

}  // namespace

SlicePlan PlanSlices(const std::vector<nlohmann::json>& desired,
                     const std::vector<nlohmann::json>& stored,
                     std::string_view pool_name) {
  SlicePlan plan;
  // Which desired slice holds each device ("" -> an empty slice).
  std::map<std::string, size_t> slice_of_device;
  for (size_t i = 0; i < desired.size(); ++i) {
    const nlohmann::json* devices = FindPath(desired[i], {"spec", "devices"});
    if (devices == nullptr || !devices->is_array() || devices->empty()) {
      slice_of_device.emplace("", i);
      continue;
    }
    for (const nlohmann::json& device : *devices) {
      const nlohmann::json* name = FindPath(device, {"name"});
      if (name != nullptr && name->is_string()) {
        slice_of_device.emplace(name->get<std::string>(), i);
      }
    }
  }

  int64_t generation = 0;
  for (const nlohmann::json& slice : stored) {
    if (PoolName(slice) == pool_name) {
      generation = std::max(generation, Generation(slice));
    }
  }

  std::map<size_t, const nlohmann::json*> matched;
  for (const nlohmann::json& slice : stored) {
    if (PoolName(slice) != pool_name || Generation(slice) < generation) {
      plan.deletes.push_back(slice);
      continue;
    }
    auto it = slice_of_device.find(FirstDevice(slice));
    if (it == slice_of_device.end() || matched.count(it->second) != 0) {
      plan.deletes.push_back(slice);
      continue;
    }
    matched[it->second] = &slice;
  }

  bool changed = matched.size() != desired.size();
  for (const auto& [index, slice] : matched) {
    changed =
        changed ||
        !SameSliceContent(WithGeneration(desired[index], generation), *slice);
  }
  plan.generation = changed ? generation + 1 : generation;

  for (size_t i = 0; i < desired.size(); ++i) {
    nlohmann::json want = WithGeneration(desired[i], plan.generation);
    auto it = matched.find(i);
    if (it == matched.end()) {
      plan.creates.push_back(std::move(want));
      continue;
    }
    if (!changed) continue;
    nlohmann::json update = *it->second;
    update["spec"] = want["spec"];
    if (const nlohmann::json* owners =
            FindPath(want, {"metadata", "ownerReferences"})) {
      update["metadata"]["ownerReferences"] = *owners;
    }
    plan.updates.push_back(std::move(update));
  }
  return plan;
}

}  // namespace gcushare::dra
