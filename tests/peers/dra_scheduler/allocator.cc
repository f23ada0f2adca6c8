#include "tests/peers/dra_scheduler/allocator.h"

#include <optional>
#include <utility>

#include "kube/json_fields.h"
#include "tests/peers/dra_scheduler/capacity_policy.h"
#include "tests/peers/dra_scheduler/device_pools.h"
#include "tests/peers/dra_scheduler/device_selector.h"

namespace gcushare::dra_scheduler {
namespace {

// Device choices tried before a pass gives up (as "does not fit").
constexpr int64_t kSearchBudget = 1000000;

std::string ClaimRef(const nlohmann::json& claim) {
  std::string name = kube::NameOf(claim);
  if (name.empty()) name = "<extended-resources>";
  return kube::NamespaceOf(claim) + "/" + name;
}

struct Selector {
  DeviceSelector compiled;
  std::string error_prefix;  // "class c: selector #0: " / "claim ns/n: ..."
};

struct RequestPlan {
  size_t claim = 0;
  std::string name;
  const nlohmann::json* device_class = nullptr;
  std::string class_name;
  std::vector<Selector> selectors;  // Class selectors first.
  bool all = false;
  int64_t count = 1;
  std::map<std::string, Quantity> capacity_requests;
  std::vector<const PoolDevice*> candidates;
};

struct Pick {
  size_t request = 0;
  const PoolDevice* device = nullptr;
  bool shared = false;
  std::map<std::string, Quantity> consumed;
};

StatusOr<std::vector<Selector>> CompileSelectors(const nlohmann::json& owner,
                                                 const std::string& prefix) {
  std::vector<Selector> out;
  if (!owner.is_object()) return out;
  auto selectors = owner.find("selectors");
  if (selectors == owner.end() || !selectors->is_array()) return out;
  for (size_t i = 0; i < selectors->size(); ++i) {
    const std::string where = prefix + "selector #" + std::to_string(i) + ": ";
    const std::string expression =
        kube::StringAt((*selectors)[i], {"cel", "expression"});
    auto compiled = DeviceSelector::Compile(expression);
    if (!compiled.ok()) {
      return InvalidArgumentError(
          where + "CEL compile error: " + compiled.status().message());
    }
    out.push_back({*compiled, where});
  }
  return out;
}

StatusOr<bool> SelectorsMatch(const RequestPlan& plan,
                              const PoolDevice& device) {
  CelDevice cel{device.driver, &device.device};
  for (const Selector& selector : plan.selectors) {
    StatusOr<bool> matches = selector.compiled.Matches(cel);
    if (!matches.ok()) {
      return InvalidArgumentError(
          selector.error_prefix +
          "CEL runtime error: " + matches.status().message());
    }
    if (!*matches) return false;
  }
  return true;
}

// The request's `exactly` part, or why the stand-in cannot serve it.
StatusOr<const nlohmann::json*> ExactRequest(const nlohmann::json& request,
                                             const std::string& where) {
  auto exactly = request.find("exactly");
  if (exactly == request.end() || !exactly->is_object()) {
    return InvalidArgumentError(
        where +
        ": only exactly requests are supported by the stand-in scheduler "
        "(firstAvailable is not)");
  }
  if (exactly->value("adminAccess", false)) {
    return InvalidArgumentError(
        where + ": adminAccess is not supported by the stand-in scheduler");
  }
  return &*exactly;
}

// Sets plan->selectors: the class's selectors, then the request's.
Status CompilePlanSelectors(const nlohmann::json& exactly,
                            const std::string& ref, RequestPlan* plan) {
  GCUSHARE_ASSIGN_OR_RETURN(
      std::vector<Selector> class_selectors,
      CompileSelectors(kube::FindPath(*plan->device_class, {"spec"}) != nullptr
                           ? (*plan->device_class)["spec"]
                           : nlohmann::json(),
                       "class " + plan->class_name + ": "));
  GCUSHARE_ASSIGN_OR_RETURN(std::vector<Selector> request_selectors,
                            CompileSelectors(exactly, "claim " + ref + ": "));
  plan->selectors = std::move(class_selectors);
  for (Selector& s : request_selectors) plan->selectors.push_back(s);
  return OkStatus();
}

// Sets plan->all or plan->count from allocationMode and count.
Status ReadAllocationMode(const nlohmann::json& exactly,
                          const std::string& where, RequestPlan* plan) {
  const std::string mode = exactly.value("allocationMode", "ExactCount");
  if (mode == "All") {
    plan->all = true;
  } else if (mode == "ExactCount" || mode.empty()) {
    auto count = exactly.find("count");
    if (count != exactly.end()) {
      if (!count->is_number_integer() || count->get<int64_t>() < 1) {
        return InvalidArgumentError(where +
                                    ": count must be a positive integer");
      }
      plan->count = count->get<int64_t>();
    }
  } else {
    return InvalidArgumentError(where + ": unknown allocationMode \"" + mode +
                                "\"");
  }
  return OkStatus();
}

// The error for a capacity request whose amount does not parse.
Status CapacityRequestError(const std::string& where, const std::string& name,
                            const Status& status) {
  return InvalidArgumentError(where + ": capacity.requests." + name + ": " +
                              status.message());
}

// Sets plan->capacity_requests from capacity.requests.
Status ReadCapacityRequests(const nlohmann::json& exactly,
                            const std::string& where, RequestPlan* plan) {
  const nlohmann::json* capacity =
      kube::FindPath(exactly, {"capacity", "requests"});
  if (capacity == nullptr || !capacity->is_object()) return OkStatus();
  for (const auto& [name, value] : capacity->items()) {
    auto q =
        value.is_string()
            ? Quantity::Parse(value.get<std::string>())
            : StatusOr<Quantity>(InvalidArgumentError("not a quantity string"));
    if (!q.ok()) return CapacityRequestError(where, name, q.status());
    plan->capacity_requests[name] = *q;
  }
  return OkStatus();
}

// Sets plan->candidates: the devices of the complete pools that match every
// selector, in pool order. An incomplete pool is an error for All; a pool
// with a matching device must be valid.
Status FindCandidates(const std::vector<DevicePool>& pools,
                      const std::string& where, RequestPlan* plan) {
  for (const DevicePool& pool : pools) {
    if (pool.incomplete) {
      if (plan->all) {
        return InvalidArgumentError(
            where + ": asks for all devices, but resource pool " + pool.name +
            " is currently being updated");
      }
      continue;
    }
    bool pool_used = false;
    for (const PoolDevice& device : pool.devices) {
      GCUSHARE_ASSIGN_OR_RETURN(bool matches, SelectorsMatch(*plan, device));
      if (!matches) continue;
      pool_used = true;
      plan->candidates.push_back(&device);
    }
    if (pool_used && !pool.invalid_reason.empty()) {
      return InvalidArgumentError("pool " + pool.name +
                                  " is invalid: " + pool.invalid_reason);
    }
  }
  return OkStatus();
}

// One entry of status.allocation.devices.results; a shared pick takes the
// next shareID and lists its consumedCapacity.
nlohmann::json ResultOf(const RequestPlan& plan, const Pick& pick,
                        ShareIdSource* share_ids) {
  nlohmann::json result = {{"request", plan.name},
                           {"driver", pick.device->driver},
                           {"pool", pick.device->pool},
                           {"device", pick.device->name}};
  if (pick.shared) {
    result["shareID"] = share_ids->Next();
    nlohmann::json consumed = nlohmann::json::object();
    for (const auto& [name, amount] : pick.consumed) {
      consumed[name] = amount.ToString();
    }
    result["consumedCapacity"] = consumed;
  }
  return result;
}

// Claim `c`'s status.allocation.devices.config: its requests' class configs
// (FromClass), then the claim's own (FromClaim).
nlohmann::json ClaimConfig(const std::vector<RequestPlan>& plans, size_t c,
                           const nlohmann::json& claim) {
  nlohmann::json config = nlohmann::json::array();
  for (const RequestPlan& plan : plans) {
    if (plan.claim != c) continue;
    const nlohmann::json* class_config =
        kube::FindPath(*plan.device_class, {"spec", "config"});
    if (class_config == nullptr || !class_config->is_array()) continue;
    for (const nlohmann::json& entry : *class_config) {
      nlohmann::json item = {{"source", "FromClass"},
                             {"requests", {plan.name}}};
      if (entry.contains("opaque")) item["opaque"] = entry["opaque"];
      config.push_back(item);
    }
  }
  const nlohmann::json* claim_config =
      kube::FindPath(claim, {"spec", "devices", "config"});
  if (claim_config != nullptr && claim_config->is_array()) {
    for (const nlohmann::json& entry : *claim_config) {
      nlohmann::json item = {{"source", "FromClaim"}};
      if (entry.contains("requests")) item["requests"] = entry["requests"];
      if (entry.contains("opaque")) item["opaque"] = entry["opaque"];
      config.push_back(item);
    }
  }
  return config;
}

class Search {
 public:
  Search(std::vector<RequestPlan>* plans, const AllocatedDevices* allocated)
      : plans_(*plans), allocated_(*allocated) {}

  bool Solve() { return Step(0, 0, 0); }
  const std::vector<Pick>& picks() const { return picks_; }

 private:
  bool Step(size_t r, size_t picked, size_t start) {
    if (r == plans_.size()) return true;
    const RequestPlan& plan = plans_[r];
    const size_t need =
        plan.all ? plan.candidates.size() : static_cast<size_t>(plan.count);
    if (picked == need) return Step(r + 1, 0, 0);
    for (size_t j = start; j < plan.candidates.size(); ++j) {
      if (plan.candidates.size() - j < need - picked) return false;
      if (++steps_ > kSearchBudget) return false;
      std::optional<Pick> pick = TryPick(r, *plan.candidates[j]);
      if (pick.has_value()) {
        Apply(*pick, true);
        picks_.push_back(*pick);
        if (Step(r, picked + 1, j + 1)) return true;
        picks_.pop_back();
        Apply(*pick, false);
      }
      if (plan.all) return false;  // All: every device, none skipped.
    }
    return false;
  }

  std::optional<Pick> TryPick(size_t r, const PoolDevice& device) {
    const RequestPlan& plan = plans_[r];
    const std::string key = device.Key();
    for (const auto& [name, amount] : plan.capacity_requests) {
      if (device.capacity.count(name) == 0) return std::nullopt;
    }
    Pick pick;
    pick.request = r;
    pick.device = &device;
    if (allocated_.exclusive.count(key) != 0 || exclusive_.count(key) != 0) {
      return std::nullopt;
    }
    if (!device.allow_multiple_allocations) {
      if (allocated_.consumed.count(key) != 0 || consumed_.count(key) != 0) {
        return std::nullopt;
      }
      for (const auto& [name, amount] : plan.capacity_requests) {
        if (amount > device.capacity.at(name).value) return std::nullopt;
      }
      return pick;
    }
    pick.shared = true;
    for (const auto& [name, capacity] : device.capacity) {
      auto requested = plan.capacity_requests.find(name);
      const Quantity consumed = ConsumedCapacity(
          requested == plan.capacity_requests.end() ? nullptr
                                                    : &requested->second,
          capacity);
      if (ViolatesPolicy(consumed, capacity)) return std::nullopt;
      Quantity total = consumed;
      auto existing = allocated_.consumed.find(key);
      if (existing != allocated_.consumed.end()) {
        auto it = existing->second.find(name);
        if (it != existing->second.end()) total = total.Plus(it->second);
      }
      auto pending = consumed_.find(key);
      if (pending != consumed_.end()) {
        auto it = pending->second.find(name);
        if (it != pending->second.end()) total = total.Plus(it->second);
      }
      if (total > capacity.value) return std::nullopt;
      pick.consumed[name] = consumed;
    }
    return pick;
  }

  void Apply(const Pick& pick, bool add) {
    const std::string key = pick.device->Key();
    if (!pick.shared) {
      if (add) {
        exclusive_.insert(key);
      } else {
        exclusive_.erase(key);
      }
      return;
    }
    int& shares = shares_[key];
    shares += add ? 1 : -1;
    std::map<std::string, Quantity>& sums = consumed_[key];
    for (const auto& [name, amount] : pick.consumed) {
      const Quantity delta =
          add ? amount : Quantity::FromNanos(-amount.nanos(), amount.format());
      sums[name] = sums[name].Plus(delta);
    }
    if (shares == 0) {
      consumed_.erase(key);
      shares_.erase(key);
    }
  }

  std::vector<RequestPlan>& plans_;
  const AllocatedDevices& allocated_;
  std::vector<Pick> picks_;
  std::set<std::string> exclusive_;
  std::map<std::string, std::map<std::string, Quantity>> consumed_;
  std::map<std::string, int> shares_;
  int64_t steps_ = 0;
};

}  // namespace

StatusOr<AllocatedDevices> GatherAllocatedDevices(
    const std::vector<nlohmann::json>& claims) {
  AllocatedDevices out;
  for (const nlohmann::json& claim : claims) {
    const nlohmann::json* results =
        kube::FindPath(claim, {"status", "allocation", "devices", "results"});
    if (results == nullptr || !results->is_array()) continue;
    for (const nlohmann::json& result : *results) {
      const std::string key = kube::StringAt(result, {"driver"}) + "/" +
                              kube::StringAt(result, {"pool"}) + "/" +
                              kube::StringAt(result, {"device"});
      if (kube::StringAt(result, {"shareID"}).empty()) {
        out.exclusive.insert(key);
        continue;
      }
      std::map<std::string, Quantity>& sums = out.consumed[key];
      const nlohmann::json* consumed =
          kube::FindPath(result, {"consumedCapacity"});
      if (consumed == nullptr || !consumed->is_object()) continue;
      for (const auto& [name, value] : consumed->items()) {
        auto q = value.is_string() ? Quantity::Parse(value.get<std::string>())
                                   : StatusOr<Quantity>(InvalidArgumentError(
                                         "not a quantity string"));
        if (!q.ok()) {
          return InvalidArgumentError("claim " + ClaimRef(claim) +
                                      ": consumedCapacity " + name + ": " +
                                      q.status().message());
        }
        sums[name] = sums[name].Plus(*q);
      }
    }
  }
  return out;
}

Allocator::Allocator(std::vector<nlohmann::json> slices,
                     std::vector<nlohmann::json> classes,
                     AllocatedDevices allocated, ShareIdSource* share_ids)
    : slices_(std::move(slices)),
      classes_(std::move(classes)),
      allocated_(std::move(allocated)),
      share_ids_(share_ids) {}

const nlohmann::json* Allocator::FindClass(const std::string& name) const {
  for (const nlohmann::json& device_class : classes_) {
    if (kube::NameOf(device_class) == name) return &device_class;
  }
  return nullptr;
}

StatusOr<AllocationOutcome> Allocator::Allocate(
    const nlohmann::json& node, const std::vector<nlohmann::json>& claims) {
  GCUSHARE_ASSIGN_OR_RETURN(std::vector<DevicePool> pools,
                            PoolsForNode(slices_, node));

  std::vector<RequestPlan> plans;
  for (size_t c = 0; c < claims.size(); ++c) {
    const nlohmann::json& claim = claims[c];
    const std::string ref = ClaimRef(claim);
    const nlohmann::json* devices = kube::FindPath(claim, {"spec", "devices"});
    if (devices == nullptr || !devices->is_object()) continue;
    auto constraints = devices->find("constraints");
    if (constraints != devices->end() && constraints->is_array() &&
        !constraints->empty()) {
      return InvalidArgumentError(
          "claim " + ref +
          ": constraints are not supported by the stand-in scheduler");
    }
    auto requests = devices->find("requests");
    if (requests == devices->end() || !requests->is_array()) continue;
    for (const nlohmann::json& request : *requests) {
      RequestPlan plan;
      plan.claim = c;
      plan.name = kube::StringAt(request, {"name"});
      const std::string where = "claim " + ref + ", request " + plan.name;
      GCUSHARE_ASSIGN_OR_RETURN(const nlohmann::json* exactly,
                                ExactRequest(request, where));
      plan.class_name = exactly->value("deviceClassName", "");
      plan.device_class = FindClass(plan.class_name);
      if (plan.device_class == nullptr) {
        return InvalidArgumentError(
            where + ": could not retrieve device class " + plan.class_name +
            ": deviceclass.resource.k8s.io \"" + plan.class_name +
            "\" not found");
      }
      GCUSHARE_RETURN_IF_ERROR(CompilePlanSelectors(*exactly, ref, &plan));
      GCUSHARE_RETURN_IF_ERROR(ReadAllocationMode(*exactly, where, &plan));
      GCUSHARE_RETURN_IF_ERROR(ReadCapacityRequests(*exactly, where, &plan));
      GCUSHARE_RETURN_IF_ERROR(FindCandidates(pools, where, &plan));
      if (plan.all && plan.candidates.empty()) {
        return AllocationOutcome{};
      }
      plans.push_back(std::move(plan));
    }
  }

  Search search(&plans, &allocated_);
  AllocationOutcome outcome;
  if (!search.Solve()) return outcome;
  outcome.fits = true;
  outcome.allocations.assign(claims.size(), nlohmann::json::object());
  std::vector<nlohmann::json> results(claims.size(), nlohmann::json::array());
  std::vector<nlohmann::json> selectors(claims.size());
  for (const Pick& pick : search.picks()) {
    const RequestPlan& plan = plans[pick.request];
    results[plan.claim].push_back(ResultOf(plan, pick, share_ids_));
    // createNodeSelector: a node-local device pins the claim to its node;
    // otherwise the first device's node selector (none for allNodes).
    const nlohmann::json& selector = pick.device->allocation_node_selector;
    nlohmann::json& chosen = selectors[plan.claim];
    if (!selector.is_null() && (chosen.is_null() || pick.device->node_local)) {
      chosen = selector;
    }
  }
  for (size_t c = 0; c < claims.size(); ++c) {
    const nlohmann::json config = ClaimConfig(plans, c, claims[c]);
    nlohmann::json& allocation = outcome.allocations[c];
    allocation["devices"] = {{"results", results[c]}};
    if (!config.empty()) allocation["devices"]["config"] = config;
    if (!selectors[c].is_null()) allocation["nodeSelector"] = selectors[c];
  }
  return outcome;
}

}  // namespace gcushare::dra_scheduler
