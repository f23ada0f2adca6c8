// The inspect view (GET /inspect, /inspect/<node>): the usage JSON of the
// vendor's user manual, built from the cache. Both forms are wrapped in
// {"nodes":[...]}; devices are an array with "id". The vendor's keys come
// first, in the manual's order; our extras (memoryUnit, healthy, assumed,
// problem) follow them, so a script written for the vendor's inspect.sh
// reads it unchanged.
#include <algorithm>
#include <nlohmann/json.hpp>

#include "extender/extender_service.h"

namespace gcushare::extender {

using placement::CachedNode;
using placement::CardUsage;

namespace {

using Json = nlohmann::ordered_json;

uint64_t Available(uint64_t total, uint64_t used) {
  return used >= total ? 0 : total - used;
}

Json PodJson(const PodUsage& pod, const CardUsage& card) {
  Json entry = {{"name", pod.name},
                {"namespace", pod.namespace_name},
                {"uid", pod.uid},
                {"createTime", pod.create_time},
                {"usedGCU", pod.whole ? card.total_units : pod.units},
                {"assumed", pod.assumed}};
  if (!pod.problem.empty()) entry["problem"] = pod.problem;
  return entry;
}

Json NodeJson(const std::string& name, const CachedNode& node,
              const std::vector<PodUsage>& pods) {
  uint64_t total = 0;
  uint64_t used = 0;
  Json devices = Json::array();
  for (const CardUsage& card : node.cards) {
    uint64_t card_used = card.whole ? card.total_units : card.used_units;
    Json pod_list = Json::array();
    for (const PodUsage& pod : pods) {
      // A pod whose card is unknown is counted (and listed) on every card.
      if (!pod.cards.empty() && std::find(pod.cards.begin(), pod.cards.end(),
                                          card.index) == pod.cards.end()) {
        continue;
      }
      pod_list.push_back(PodJson(pod, card));
    }
    total += card.total_units;
    used += card_used;
    devices.push_back({{"id", card.index},
                       {"totalGCU", card.total_units},
                       {"usedGCU", card_used},
                       {"availableGCU", Available(card.total_units, card_used)},
                       {"pods", std::move(pod_list)},
                       {"healthy", card.healthy}});
  }
  std::sort(devices.begin(), devices.end(), [](const Json& a, const Json& b) {
    return a["id"].get<uint32_t>() < b["id"].get<uint32_t>();
  });
  Json out = {{"name", name},
              {"totalGCU", total},
              {"usedGCU", used},
              {"availableGCU", Available(total, used)},
              {"devices", std::move(devices)},
              {"memoryUnit", node.view.unit_text}};
  if (!node.view.usable()) out["problem"] = node.view.problem;
  return out;
}

}  // namespace

nlohmann::ordered_json ExtenderService::InspectAll() const {
  std::vector<std::pair<std::string, CachedNode>> nodes;
  cache_->VisitAll([&](const std::string& name, const CachedNode& node) {
    nodes.emplace_back(name, node);
  });
  std::sort(nodes.begin(), nodes.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  Json list = Json::array();
  for (const auto& [name, node] : nodes) {
    list.push_back(NodeJson(name, node, cache_->PodsOn(name)));
  }
  return Json{{"nodes", std::move(list)}};
}

std::optional<nlohmann::ordered_json> ExtenderService::InspectNode(
    std::string_view name) const {
  std::optional<CachedNode> found;
  cache_->Visit({std::string(name)},
                [&](const std::string&, const CachedNode* node) {
                  if (node != nullptr) found = *node;
                });
  if (!found.has_value()) return std::nullopt;
  return Json{{"nodes", Json::array({NodeJson(std::string(name), *found,
                                              cache_->PodsOn(name))})}};
}

}  // namespace gcushare::extender
