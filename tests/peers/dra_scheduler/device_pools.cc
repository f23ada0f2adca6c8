#include "tests/peers/dra_scheduler/device_pools.h"

#include <cstdint>
#include <set>
#include <utility>

#include "kube/json_fields.h"

namespace gcushare::dra_scheduler {
namespace {

bool RequirementMatches(const nlohmann::json& requirement,
                        const std::string* value) {
  if (!requirement.is_object()) return false;
  const std::string op = requirement.value("operator", "");
  std::set<std::string> values;
  auto it = requirement.find("values");
  if (it != requirement.end() && it->is_array()) {
    for (const nlohmann::json& v : *it) {
      if (v.is_string()) values.insert(v.get<std::string>());
    }
  }
  if (op == "In") return value != nullptr && values.count(*value) != 0;
  if (op == "NotIn") return value == nullptr || values.count(*value) == 0;
  if (op == "Exists") return value != nullptr;
  if (op == "DoesNotExist") return value == nullptr;
  return false;
}

bool TermMatches(const nlohmann::json& term, const nlohmann::json& node) {
  if (!term.is_object()) return false;
  bool any = false;
  auto expressions = term.find("matchExpressions");
  if (expressions != term.end() && expressions->is_array()) {
    const nlohmann::json* labels = kube::FindPath(node, {"metadata", "labels"});
    for (const nlohmann::json& requirement : *expressions) {
      any = true;
      std::string value;
      const std::string key = requirement.value("key", "");
      bool present = false;
      if (labels != nullptr && labels->is_object()) {
        auto label = labels->find(key);
        if (label != labels->end() && label->is_string()) {
          value = label->get<std::string>();
          present = true;
        }
      }
      if (!RequirementMatches(requirement, present ? &value : nullptr)) {
        return false;
      }
    }
  }
  auto fields = term.find("matchFields");
  if (fields != term.end() && fields->is_array()) {
    for (const nlohmann::json& requirement : *fields) {
      any = true;
      if (requirement.value("key", "") != "metadata.name") return false;
      const std::string name = kube::NameOf(node);
      if (!RequirementMatches(requirement, &name)) return false;
    }
  }
  return any;  // An empty term matches nothing.
}

nlohmann::json NodeNameSelector(const std::string& node) {
  return {{"nodeSelectorTerms",
           nlohmann::json::array(
               {{{"matchFields",
                  nlohmann::json::array({{{"key", "metadata.name"},
                                          {"operator", "In"},
                                          {"values", {node}}}})}}})}};
}

// Whether `holder` (a slice spec or a device) places devices on `node`, and
// the allocation node selector that goes with it.
bool PlacedOnNode(const nlohmann::json& holder, const nlohmann::json& node,
                  nlohmann::json* allocation_selector,
                  bool* node_local = nullptr) {
  const std::string node_name = holder.value("nodeName", "");
  if (node_local != nullptr) *node_local = !node_name.empty();
  if (!node_name.empty()) {
    *allocation_selector = NodeNameSelector(node_name);
    return node_name == kube::NameOf(node);
  }
  if (holder.value("allNodes", false)) {
    *allocation_selector = nullptr;
    return true;
  }
  auto selector = holder.find("nodeSelector");
  if (selector != holder.end() && selector->is_object()) {
    *allocation_selector = *selector;
    return NodeSelectorMatches(*selector, node);
  }
  return false;
}

// The error for a device capacity that does not parse.
Status DeviceCapacityError(const std::string& slice_name,
                           const std::string& device, const std::string& name,
                           const Status& status) {
  return InvalidArgumentError("resourceslice " + slice_name + ": device " +
                              device + ": " + name + ": " + status.message());
}

}  // namespace

bool NodeSelectorMatches(const nlohmann::json& selector,
                         const nlohmann::json& node) {
  auto terms = selector.find("nodeSelectorTerms");
  if (terms == selector.end() || !terms->is_array()) return false;
  for (const nlohmann::json& term : *terms) {
    if (TermMatches(term, node)) return true;
  }
  return false;
}

StatusOr<std::vector<DevicePool>> PoolsForNode(
    const std::vector<nlohmann::json>& slices, const nlohmann::json& node) {
  struct Gathered {
    int64_t generation = -1;
    std::vector<const nlohmann::json*> slices;
  };
  std::map<std::pair<std::string, std::string>, Gathered> pools;
  for (const nlohmann::json& slice : slices) {
    const std::string slice_name = kube::NameOf(slice);
    const nlohmann::json* spec = kube::FindPath(slice, {"spec"});
    if (spec == nullptr || !spec->is_object()) {
      return InvalidArgumentError("resourceslice " + slice_name +
                                  ": spec: Required value");
    }
    const std::string driver = kube::StringAt(*spec, {"driver"});
    const std::string pool = kube::StringAt(*spec, {"pool", "name"});
    if (driver.empty() || pool.empty()) {
      return InvalidArgumentError("resourceslice " + slice_name +
                                  ": spec.driver and spec.pool.name are "
                                  "required");
    }
    nlohmann::json ignored;
    const bool per_device = spec->value("perDeviceNodeSelection", false);
    if (!per_device && !PlacedOnNode(*spec, node, &ignored)) continue;
    const nlohmann::json* generation_json =
        kube::FindPath(*spec, {"pool", "generation"});
    const int64_t generation =
        generation_json != nullptr && generation_json->is_number_integer()
            ? generation_json->get<int64_t>()
            : 0;
    Gathered& gathered = pools[{driver, pool}];
    if (generation > gathered.generation) {
      gathered.generation = generation;
      gathered.slices.clear();
    }
    if (generation == gathered.generation) gathered.slices.push_back(&slice);
  }

  std::vector<DevicePool> out;
  for (const auto& [id, gathered] : pools) {
    DevicePool pool;
    pool.driver = id.first;
    pool.name = id.second;
    const nlohmann::json* count = kube::FindPath(
        *gathered.slices.front(), {"spec", "pool", "resourceSliceCount"});
    const int64_t want = count != nullptr && count->is_number_integer()
                             ? count->get<int64_t>()
                             : 0;
    pool.incomplete = static_cast<int64_t>(gathered.slices.size()) != want;
    std::set<std::string> names;
    for (const nlohmann::json* slice : gathered.slices) {
      const nlohmann::json& spec = (*slice)["spec"];
      const std::string slice_name = kube::NameOf(*slice);
      nlohmann::json slice_selector;
      bool slice_node_local = false;
      PlacedOnNode(spec, node, &slice_selector, &slice_node_local);
      auto devices = spec.find("devices");
      if (devices == spec.end() || !devices->is_array()) continue;
      for (const nlohmann::json& device : *devices) {
        PoolDevice entry;
        entry.driver = pool.driver;
        entry.pool = pool.name;
        entry.name = device.value("name", "");
        entry.device = device;
        entry.allow_multiple_allocations =
            device.value("allowMultipleAllocations", false);
        entry.allocation_node_selector = slice_selector;
        entry.node_local = slice_node_local;
        if (spec.value("perDeviceNodeSelection", false) &&
            !PlacedOnNode(device, node, &entry.allocation_node_selector,
                          &entry.node_local)) {
          continue;
        }
        if (!names.insert(entry.name).second && pool.invalid_reason.empty()) {
          pool.invalid_reason = "duplicate device name " + entry.name;
        }
        auto capacity = device.find("capacity");
        if (capacity != device.end() && capacity->is_object()) {
          for (const auto& [name, value] : capacity->items()) {
            auto parsed = ParseDeviceCapacity(value);
            if (!parsed.ok()) {
              return DeviceCapacityError(slice_name, entry.name, name,
                                         parsed.status());
            }
            entry.capacity[name] = *parsed;
          }
        }
        pool.devices.push_back(std::move(entry));
      }
    }
    out.push_back(std::move(pool));
  }
  return out;
}

}  // namespace gcushare::dra_scheduler
