// The inspect view (GET /inspect, /inspect/<node>): the usage JSON of the
// vendor's user manual, built from the cache.
#include <algorithm>
#include <nlohmann/json.hpp>

#include "extender/extender_service.h"

namespace gcushare::extender {
namespace {

nlohmann::json NodeJson(const std::string& name, const CachedNode& node,
                        const std::vector<PodUsage>& pods) {
  uint64_t total = 0;
  uint64_t used = 0;
  nlohmann::json devices = nlohmann::json::object();
  for (const CardUsage& card : node.cards) {
    uint64_t card_used = card.whole ? card.total_units : card.used_units;
    nlohmann::json pod_list = nlohmann::json::array();
    for (const PodUsage& pod : pods) {
      // A pod whose card is unknown is counted (and listed) on every card.
      if (!pod.cards.empty() && std::find(pod.cards.begin(), pod.cards.end(),
                                          card.index) == pod.cards.end()) {
        continue;
      }
      nlohmann::json entry = {
          {"name", pod.name},
          {"namespace", pod.namespace_name},
          {"uid", pod.uid},
          {"createTime", pod.create_time},
          {"usedGCU", pod.whole ? card.total_units : pod.units},
          {"assumed", pod.assumed}};
      if (!pod.problem.empty()) entry["problem"] = pod.problem;
      pod_list.push_back(std::move(entry));
    }
    total += card.total_units;
    used += card_used;
    devices[std::to_string(card.index)] = {
        {"totalGCU", card.total_units},
        {"usedGCU", card_used},
        {"availableGCU",
         card_used >= card.total_units ? 0 : card.total_units - card_used},
        {"healthy", card.healthy},
        {"pods", std::move(pod_list)}};
  }
  nlohmann::json out = {{"name", name},
                        {"memoryUnit", node.layout.unit_text},
                        {"totalGCU", total},
                        {"usedGCU", used},
                        {"availableGCU", used >= total ? 0 : total - used},
                        {"devices", std::move(devices)}};
  if (!node.layout.usable()) out["problem"] = node.layout.problem;
  return out;
}

}  // namespace

nlohmann::json ExtenderService::InspectAll() const {
  std::vector<std::pair<std::string, CachedNode>> nodes;
  cache_->VisitAll([&](const std::string& name, const CachedNode& node) {
    nodes.emplace_back(name, node);
  });
  nlohmann::json out = nlohmann::json::array();
  for (const auto& [name, node] : nodes) {
    out.push_back(NodeJson(name, node, cache_->PodsOn(name)));
  }
  return out;
}

std::optional<nlohmann::json> ExtenderService::InspectNode(
    std::string_view name) const {
  std::optional<CachedNode> found;
  cache_->Visit({std::string(name)},
                [&](const std::string&, const CachedNode* node) {
                  if (node != nullptr) found = *node;
                });
  if (!found.has_value()) return std::nullopt;
  return NodeJson(std::string(name), *found, cache_->PodsOn(name));
}

}  // namespace gcushare::extender
