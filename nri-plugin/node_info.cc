#include "nri-plugin/node_info.h"

#include <spdlog/spdlog.h>

#include "base/mutex.h"
#include "contract/node_layout.h"
#include "kube/json_fields.h"

namespace gcushare::nri {

StatusOr<NodeGcuInfo> DecodeNodeGcuInfo(const nlohmann::json& node) {
  const nlohmann::json* annotations =
      kube::FindPath(node, {"metadata", "annotations"});
  StatusOr<contract::NodeLayout> layout = contract::DecodeNodeLayout(
      annotations != nullptr ? *annotations : nlohmann::json());
  // Nothing published yet: no unit, no card sizes (the flags apply).
  if (layout.status().code() == StatusCode::kNotFound) return NodeGcuInfo();
  if (!layout.ok()) return layout.status();
  NodeGcuInfo info;
  info.unit = layout->unit;
  for (const contract::NodeCard& c : layout->cards) {
    info.card_memory_units[c.index] = c.memory_units;
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
  base::MutexLock lock(mu_);
  cached_ = *info;
}

void NodeInfoCache::OnUpdate(const nlohmann::json&,
                             const nlohmann::json& new_node) {
  OnAdd(new_node);
}

void NodeInfoCache::OnDelete(const nlohmann::json&) {}  // Keep the last.

StatusOr<NodeGcuInfo> NodeInfoCache::Get() const {
  base::MutexLock lock(mu_);
  if (cached_.has_value()) return *cached_;
  return UnavailableError("node " + node_name_ + ": not seen by the watch yet");
}

}  // namespace gcushare::nri
