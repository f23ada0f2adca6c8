#include "contract/pod_request.h"

#include <algorithm>
#include <limits>
#include <string_view>
#include <utility>

#include "contract/names.h"
#include "contract/quantity.h"
#include "kube/json_fields.h"

namespace gcushare::contract {
namespace {

// Who a container is in an error message: "container <name>" or "init
// container <name>" ("?" for no name). Built only for an error.
std::string Who(const nlohmann::json& container, bool init) {
  const std::string name = kube::StringAt(container, {"name"});
  return (init ? "init container " : "container ") +
         (name.empty() ? "?" : name);
}

// A container's resources.limits and resources.requests (each null when
// absent or not an object), looked up once for both GCU resources.
struct ResourceLists {
  const nlohmann::json* lists[2] = {nullptr, nullptr};  // Limits, requests.

  explicit ResourceLists(const nlohmann::json& container) {
    const auto resources = container.find("resources");
    if (resources == container.end() || !resources->is_object()) return;
    int i = 0;
    for (const char* field : {"limits", "requests"}) {
      const auto map = resources->find(field);
      if (map != resources->end() && map->is_object()) lists[i] = &*map;
      ++i;
    }
  }
};

// The container's amount of `resource`: limits first, then requests.
// Allocates nothing unless it fails (a pod event reads every container).
StatusOr<uint64_t> Amount(const ResourceLists& from,
                          const nlohmann::json& container,
                          std::string_view resource, bool init) {
  for (const nlohmann::json* map : from.lists) {
    if (map == nullptr) continue;
    const auto value = map->find(resource);
    if (value == map->end()) continue;
    StatusOr<uint64_t> parsed = 0;
    if (value->is_string()) {
      parsed = ParseIntegerQuantity(value->get_ref<const std::string&>());
    } else if (value->is_number_unsigned() || value->is_number_integer()) {
      parsed = ParseIntegerQuantity(value->dump());
    } else {
      return InvalidArgumentError(Who(container, init) + ": " +
                                  std::string(resource) + " is not a quantity");
    }
    if (!parsed.ok()) {
      return parsed.status().WithContext(Who(container, init) + " " +
                                         std::string(resource));
    }
    return *parsed;
  }
  return 0;
}

StatusOr<std::vector<ContainerRequest>> ReadContainers(
    const nlohmann::json& spec, const char* field, bool init) {
  std::vector<ContainerRequest> out;
  const auto list = spec.find(field);
  if (list == spec.end() || list->is_null()) return out;
  if (!list->is_array()) {
    return InvalidArgumentError(std::string("spec.") + field +
                                " is not a list");
  }
  for (const nlohmann::json& c : *list) {
    if (!c.is_object()) {
      return InvalidArgumentError(std::string("spec.") + field +
                                  " holds a non-object");
    }
    ContainerRequest r;
    r.init = init;
    r.sidecar = init && kube::StringAt(c, {"restartPolicy"}) == "Always";
    const ResourceLists lists(c);
    GCUSHARE_ASSIGN_OR_RETURN(r.memory_units,
                              Amount(lists, c, kResourceMemory, init));
    GCUSHARE_ASSIGN_OR_RETURN(r.cards, Amount(lists, c, kResourceCount, init));
    // Never .value(): it throws on a field of another type. Only the
    // containers that ask are kept (ComputePodRequest), so only they need
    // their name.
    if (r.Wants()) r.name = kube::StringAt(c, {"name"});
    out.push_back(std::move(r));
  }
  return out;
}

// a + b, or false when the sum does not fit a uint64.
bool Add(uint64_t a, uint64_t b, uint64_t* sum) {
  if (a > std::numeric_limits<uint64_t>::max() - b) return false;
  *sum = a + b;
  return true;
}

// The effective request; InvalidArgument naming `resource` when a sum of
// container amounts passes 2^64-1 (it would wrap to a small number: two
// containers of 9223372036854775808 would ask for 0).
StatusOr<uint64_t> Effective(const std::vector<ContainerRequest>& init,
                             const std::vector<ContainerRequest>& app,
                             uint64_t ContainerRequest::*field,
                             std::string_view resource) {
  const auto too_large = [&] {
    return InvalidArgumentError(
        std::string(resource) +
        ": the containers' sum is too large (past 18446744073709551615)");
  };
  uint64_t sidecars = 0;
  uint64_t init_peak = 0;
  for (const ContainerRequest& c : init) {
    uint64_t with = 0;
    if (!Add(sidecars, c.*field, &with)) return too_large();
    if (c.sidecar) sidecars = with;
    init_peak = std::max(init_peak, with);
  }
  uint64_t running = sidecars;
  for (const ContainerRequest& c : app) {
    if (!Add(running, c.*field, &running)) return too_large();
  }
  return std::max(running, init_peak);
}

}  // namespace

StatusOr<PodRequest> ComputePodRequest(const nlohmann::json& pod) {
  if (!pod.is_object()) return InvalidArgumentError("pod is not an object");
  const auto spec = pod.find("spec");
  if (spec == pod.end() || !spec->is_object()) {
    return InvalidArgumentError("pod has no spec");
  }
  GCUSHARE_ASSIGN_OR_RETURN(auto init,
                            ReadContainers(*spec, "initContainers", true));
  GCUSHARE_ASSIGN_OR_RETURN(auto app,
                            ReadContainers(*spec, "containers", false));
  return PodRequestOf(std::move(init), std::move(app));
}

StatusOr<PodRequest> PodRequestOf(std::vector<ContainerRequest> init,
                                  std::vector<ContainerRequest> app) {
  PodRequest request;
  GCUSHARE_ASSIGN_OR_RETURN(
      request.memory_units,
      Effective(init, app, &ContainerRequest::memory_units, kResourceMemory));
  GCUSHARE_ASSIGN_OR_RETURN(
      request.cards,
      Effective(init, app, &ContainerRequest::cards, kResourceCount));
  for (auto* list : {&init, &app}) {
    for (ContainerRequest& c : *list) {
      if (c.Wants()) request.containers.push_back(std::move(c));
    }
  }
  return request;
}

json::FieldTree PodRequestFields() {
  json::FieldTree fields;
  for (const char* list : {"containers", "initContainers"}) {
    for (const char* field : {"name", "restartPolicy", "resources"}) {
      fields.Add({"spec", list, field});
    }
  }
  return fields;
}

}  // namespace gcushare::contract
