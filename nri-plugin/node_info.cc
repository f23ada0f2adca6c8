#include "nri-plugin/node_info.h"

#include <spdlog/spdlog.h>

#include "contract/annotations.h"
#include "contract/names.h"

namespace gcushare::nri {

StatusOr<NodeGcuInfo> DecodeNodeGcuInfo(const nlohmann::json& node) {
  NodeGcuInfo info;
  const nlohmann::json* annotations = nullptr;
  if (node.contains("metadata") && node["metadata"].is_object() &&
      node["metadata"].contains("annotations")) {
    annotations = &node["metadata"]["annotations"];
  }
  if (annotations == nullptr || !annotations->is_object()) return info;
  auto unit = annotations->find(std::string(contract::kNodeMemoryUnit));
  if (unit != annotations->end() && unit->is_string()) {
    StatusOr<contract::MemoryUnit> parsed =
        contract::MemoryUnit::Parse(unit->get<std::string>());
    if (!parsed.ok()) {
      return parsed.status().WithContext(
          "node annotation " + std::string(contract::kNodeMemoryUnit));
    }
    info.unit = *parsed;
  }
  auto devices = annotations->find(std::string(contract::kNodeDevices));
  if (devices != annotations->end() && devices->is_string()) {
    GCUSHARE_ASSIGN_OR_RETURN(
        std::vector<contract::NodeCard> cards,
        contract::DecodeNodeCards(devices->get<std::string>()));
    for (const contract::NodeCard& c : cards) {
      info.card_memory_units[c.index] = c.memory_units;
    }
  }
  return info;
}

void NodeInfoCache::OnAdd(const nlohmann::json& node) {
  StatusOr<NodeGcuInfo> info = DecodeNodeGcuInfo(node);
  if (!info.ok()) {
    spdlog::warn("node {}: keeping the last GCU layout: {}", node_name_,
                 info.status().ToString());
    return;
  }
  std::lock_guard<std::mutex> lock(mu_);
  cached_ = *info;
}

void NodeInfoCache::OnUpdate(const nlohmann::json&,
                             const nlohmann::json& new_node) {
  OnAdd(new_node);
}

void NodeInfoCache::OnDelete(const nlohmann::json&) {}  // Keep the last.

StatusOr<NodeGcuInfo> NodeInfoCache::Get() const {
  std::lock_guard<std::mutex> lock(mu_);
  if (cached_.has_value()) return *cached_;
  return UnavailableError("node " + node_name_ + ": not seen by the watch yet");
}

}  // namespace gcushare::nri
