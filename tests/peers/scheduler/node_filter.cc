#include "tests/peers/scheduler/node_filter.h"

#include <algorithm>
#include <cstdlib>
#include <set>

#include "contract/quantity.h"
#include "tests/peers/scheduler/scheduler_config.h"

namespace gcushare::scheduler {
namespace {

constexpr std::string_view kUnschedulableTaint =
    "node.kubernetes.io/unschedulable";

const nlohmann::json& Child(const nlohmann::json& object,
                            std::string_view key) {
  static const nlohmann::json* const kNull = new nlohmann::json();
  if (!object.is_object()) return *kNull;
  auto it = object.find(std::string(key));
  return it == object.end() ? *kNull : *it;
}

std::string StringOf(const nlohmann::json& value) {
  return value.is_string() ? value.get<std::string>() : std::string();
}

// Extended resources in a resource list, as whole numbers.
ResourceAmounts Amounts(const nlohmann::json& list) {
  ResourceAmounts out;
  if (!list.is_object()) return out;
  for (auto it = list.begin(); it != list.end(); ++it) {
    if (!IsExtendedResourceName(it.key())) continue;
    int64_t amount = 0;
    if (it->is_string()) {
      auto parsed = contract::ParseIntegerQuantity(it->get<std::string>());
      if (parsed.ok()) amount = static_cast<int64_t>(*parsed);
    } else if (it->is_number_integer()) {
      amount = it->get<int64_t>();
    }
    out[it.key()] = amount;
  }
  return out;
}

ResourceAmounts ContainerRequests(const nlohmann::json& container) {
  const nlohmann::json& resources = Child(container, "resources");
  ResourceAmounts out = Amounts(Child(resources, "limits"));
  for (const auto& [name, amount] : Amounts(Child(resources, "requests"))) {
    out[name] = amount;  // Requests win over limits.
  }
  return out;
}

void AddTo(ResourceAmounts& sum, const ResourceAmounts& more) {
  for (const auto& [name, amount] : more) sum[name] += amount;
}

void MaxInto(ResourceAmounts& max, const ResourceAmounts& other) {
  for (const auto& [name, amount] : other) {
    max[name] = std::max(max[name], amount);
  }
}

bool Tolerates(const nlohmann::json& toleration, std::string_view key,
               std::string_view value, std::string_view effect) {
  const std::string t_effect = StringOf(Child(toleration, "effect"));
  if (!t_effect.empty() && t_effect != effect) return false;
  const std::string t_key = StringOf(Child(toleration, "key"));
  const std::string op = StringOf(Child(toleration, "operator"));
  if (op == "Exists") return t_key.empty() || t_key == key;
  if (op.empty() || op == "Equal") {
    return t_key == key && StringOf(Child(toleration, "value")) == value;
  }
  return false;
}

bool PodTolerates(const nlohmann::json& pod, std::string_view key,
                  std::string_view value, std::string_view effect) {
  const nlohmann::json& tolerations = Child(Child(pod, "spec"), "tolerations");
  if (!tolerations.is_array()) return false;
  for (const nlohmann::json& toleration : tolerations) {
    if (Tolerates(toleration, key, value, effect)) return true;
  }
  return false;
}

bool MatchesRequirement(const nlohmann::json& requirement,
                        const nlohmann::json& labels) {
  const std::string key = StringOf(Child(requirement, "key"));
  const std::string op = StringOf(Child(requirement, "operator"));
  std::vector<std::string> values;
  if (Child(requirement, "values").is_array()) {
    for (const auto& v : Child(requirement, "values")) {
      values.push_back(StringOf(v));
    }
  }
  const bool has = labels.is_object() && labels.contains(key);
  const std::string label = has ? StringOf(labels.at(key)) : std::string();
  const auto in = [&] {
    return std::find(values.begin(), values.end(), label) != values.end();
  };
  if (op == "In") return has && in();
  if (op == "NotIn") return !has || !in();
  if (op == "Exists") return has;
  if (op == "DoesNotExist") return !has;
  if (op == "Gt" || op == "Lt") {
    if (!has || values.size() != 1) return false;
    char* end = nullptr;
    const long long have = std::strtoll(label.c_str(), &end, 10);
    if (end == label.c_str() || *end != '\0') return false;
    const long long want = std::strtoll(values[0].c_str(), &end, 10);
    return op == "Gt" ? have > want : have < want;
  }
  return false;
}

bool MatchesTerm(const nlohmann::json& term, const nlohmann::json& node) {
  const nlohmann::json& expressions = Child(term, "matchExpressions");
  const nlohmann::json& fields = Child(term, "matchFields");
  const bool has_expressions = expressions.is_array() && !expressions.empty();
  const bool has_fields = fields.is_array() && !fields.empty();
  if (!has_expressions && !has_fields) return false;  // Matches nothing.
  const nlohmann::json& labels = Child(Child(node, "metadata"), "labels");
  if (has_expressions) {
    for (const auto& requirement : expressions) {
      if (!MatchesRequirement(requirement, labels)) return false;
    }
  }
  if (has_fields) {
    const nlohmann::json field_labels = {
        {"metadata.name", StringOf(Child(Child(node, "metadata"), "name"))}};
    for (const auto& requirement : fields) {
      if (StringOf(Child(requirement, "key")) != "metadata.name") return false;
      if (!MatchesRequirement(requirement, field_labels)) return false;
    }
  }
  return true;
}

bool MatchesNodeAffinity(const nlohmann::json& pod,
                         const nlohmann::json& node) {
  const nlohmann::json& spec = Child(pod, "spec");
  const nlohmann::json& labels = Child(Child(node, "metadata"), "labels");
  const nlohmann::json& selector = Child(spec, "nodeSelector");
  if (selector.is_object()) {
    for (auto it = selector.begin(); it != selector.end(); ++it) {
      if (!labels.is_object() || !labels.contains(it.key()) ||
          labels.at(it.key()) != *it) {
        return false;
      }
    }
  }
  const nlohmann::json& required =
      Child(Child(Child(spec, "affinity"), "nodeAffinity"),
            "requiredDuringSchedulingIgnoredDuringExecution");
  if (required.is_object()) {
    const nlohmann::json& terms = Child(required, "nodeSelectorTerms");
    if (!terms.is_array()) return false;
    bool any = false;
    for (const auto& term : terms) {
      if (MatchesTerm(term, node)) any = true;
    }
    if (!any) return false;
  }
  return true;
}

// TaintToleration's reason for an untolerated taint, in the simulated
// release's wording.
std::string UntoleratedTaintReason(MessageStyle style, const std::string& key,
                                   const std::string& value) {
  if (style == MessageStyle::kV126) {
    return "node(s) had untolerated taint {" + key + ": " + value + "}";
  }
  return "node(s) had untolerated taint(s)";
}

}  // namespace

ResourceAmounts PodRequests(const nlohmann::json& pod) {
  const nlohmann::json& spec = Child(pod, "spec");
  ResourceAmounts apps;
  if (Child(spec, "containers").is_array()) {
    for (const auto& container : Child(spec, "containers")) {
      AddTo(apps, ContainerRequests(container));
    }
  }
  ResourceAmounts sidecars;
  ResourceAmounts init_max;
  if (Child(spec, "initContainers").is_array()) {
    for (const auto& container : Child(spec, "initContainers")) {
      const ResourceAmounts own = ContainerRequests(container);
      if (StringOf(Child(container, "restartPolicy")) == "Always") {
        AddTo(sidecars, own);
        MaxInto(init_max, sidecars);
      } else {
        ResourceAmounts with_sidecars = sidecars;
        AddTo(with_sidecars, own);
        MaxInto(init_max, with_sidecars);
      }
    }
  }
  AddTo(apps, sidecars);
  MaxInto(apps, init_max);
  AddTo(apps, Amounts(Child(spec, "overhead")));
  return apps;
}

ResourceAmounts NodeRequested(const std::vector<const nlohmann::json*>& pods) {
  ResourceAmounts sum;
  for (const nlohmann::json* pod : pods) {
    const std::string phase = StringOf(Child(Child(*pod, "status"), "phase"));
    if (phase == "Succeeded" || phase == "Failed") continue;
    AddTo(sum, PodRequests(*pod));
  }
  return sum;
}

NodeStatus FilterNode(const nlohmann::json& pod, const nlohmann::json& node,
                      const ResourceAmounts& requested,
                      const FilterOptions& options) {
  const nlohmann::json& node_spec = Child(node, "spec");
  // NodeUnschedulable.
  if (Child(node_spec, "unschedulable") == true &&
      !PodTolerates(pod, kUnschedulableTaint, "", "NoSchedule")) {
    return {FilterCode::kUnschedulableAndUnresolvable,
            {"node(s) were unschedulable"}};
  }
  // TaintToleration: the first untolerated NoSchedule/NoExecute taint.
  if (Child(node_spec, "taints").is_array()) {
    for (const auto& taint : Child(node_spec, "taints")) {
      const std::string effect = StringOf(Child(taint, "effect"));
      if (effect != "NoSchedule" && effect != "NoExecute") continue;
      const std::string key = StringOf(Child(taint, "key"));
      const std::string value = StringOf(Child(taint, "value"));
      if (PodTolerates(pod, key, value, effect)) continue;
      return {FilterCode::kUnschedulableAndUnresolvable,
              {UntoleratedTaintReason(options.style, key, value)}};
    }
  }
  // NodeAffinity.
  if (!MatchesNodeAffinity(pod, node)) {
    return {FilterCode::kUnschedulableAndUnresolvable,
            {"node(s) didn't match Pod's node affinity/selector"}};
  }
  // NodeResourcesFit, extended resources.
  const ResourceAmounts allocatable =
      Amounts(Child(Child(node, "status"), "allocatable"));
  NodeStatus status;
  for (const auto& [name, amount] : PodRequests(pod)) {
    if (amount == 0) continue;
    if (options.ignored_resource && options.ignored_resource(name)) continue;
    auto have = allocatable.find(name);
    auto used = requested.find(name);
    const int64_t free = (have == allocatable.end() ? 0 : have->second) -
                         (used == requested.end() ? 0 : used->second);
    if (amount > free) status.reasons.push_back("Insufficient " + name);
  }
  if (!status.reasons.empty()) status.code = FilterCode::kUnschedulable;
  return status;
}

}  // namespace gcushare::scheduler
