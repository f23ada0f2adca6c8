#include "device-plugin/node_publisher.h"

#include "contract/names.h"
#include "device-plugin/device_ids.h"

namespace gcushare::deviceplugin {

NodeLayout MakeNodeLayout(const efml::Inventory& inventory,
                          contract::MemoryUnit unit, bool node_status_mode) {
  NodeLayout layout;
  layout.unit = unit;
  layout.cards = inventory.cards.size();
  uint64_t total = 0, healthy = 0;
  for (const efml::Card& card : inventory.cards) {
    const uint64_t units = CardUnits(card, unit);
    total += units;
    if (card.healthy) {
      healthy += units;
      layout.healthy_cards++;
    }
    layout.devices.push_back(contract::NodeCard{card.index, card.uuid, units,
                                                card.healthy, card.numa_node});
  }
  if (node_status_mode) {
    layout.memory_capacity = total;
    layout.memory_allocatable = healthy;
  }
  return layout;
}

nlohmann::json NodeStatusPatch(const NodeLayout& layout) {
  const std::string count(contract::kResourceCount);
  const std::string memory(contract::kResourceMemory);
  nlohmann::json capacity = {{count, std::to_string(layout.cards)}};
  nlohmann::json allocatable = {{count, std::to_string(layout.healthy_cards)}};
  if (layout.memory_capacity) {
    capacity[memory] = std::to_string(*layout.memory_capacity);
    allocatable[memory] = std::to_string(layout.memory_allocatable.value_or(0));
  }
  return {{"status", {{"capacity", capacity}, {"allocatable", allocatable}}}};
}

nlohmann::json NodeAnnotationsPatch(const NodeLayout& layout) {
  return {{"metadata",
           {{"annotations",
             {{std::string(contract::kNodeMemoryUnit), layout.unit.ToString()},
              {std::string(contract::kNodeDevices),
               contract::EncodeNodeCards(layout.devices)}}}}}};
}

KubeNodePublisher::KubeNodePublisher(kube::KubeClient* client, std::string node)
    : client_(client), node_(std::move(node)) {}

Status KubeNodePublisher::Publish(const NodeLayout& layout) {
  StatusOr<nlohmann::json> status = client_->Patch(
      kube::Resource::Nodes(), "", node_, kube::PatchType::kMerge,
      NodeStatusPatch(layout), "status");
  if (!status.ok()) {
    return status.status().WithContext("patching status of node " + node_);
  }
  StatusOr<nlohmann::json> annotations =
      client_->Patch(kube::Resource::Nodes(), "", node_,
                     kube::PatchType::kMerge, NodeAnnotationsPatch(layout), "");
  if (!annotations.ok()) {
    return annotations.status().WithContext("annotating node " + node_);
  }
  return OkStatus();
}

}  // namespace gcushare::deviceplugin
