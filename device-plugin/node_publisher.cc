#include "device-plugin/node_publisher.h"

#include "contract/names.h"
#include "device-plugin/device_ids.h"

namespace gcushare::deviceplugin {

NodePublication MakeNodePublication(const efml::Inventory& inventory,
                                    contract::MemoryUnit unit,
                                    bool node_status_mode) {
  NodePublication publication;
  publication.layout.unit = unit;
  publication.card_count = inventory.cards.size();
  uint64_t total = 0, healthy = 0;
  for (const efml::Card& card : inventory.cards) {
    const uint64_t units = CardUnits(card, unit);
    total += units;
    if (card.healthy) {
      healthy += units;
      publication.healthy_card_count++;
    }
    publication.layout.cards.push_back(contract::NodeCard{
        card.index, card.uuid, units, card.healthy, card.numa_node});
  }
  if (node_status_mode) {
    publication.memory_capacity = total;
    publication.memory_allocatable = healthy;
  }
  return publication;
}

nlohmann::json NodeStatusPatch(const NodePublication& publication) {
  const std::string count(contract::kResourceCount);
  const std::string memory(contract::kResourceMemory);
  nlohmann::json capacity = {{count, std::to_string(publication.card_count)}};
  nlohmann::json allocatable = {
      {count, std::to_string(publication.healthy_card_count)}};
  if (publication.memory_capacity) {
    capacity[memory] = std::to_string(*publication.memory_capacity);
    allocatable[memory] =
        std::to_string(publication.memory_allocatable.value_or(0));
  }
  return {{"status", {{"capacity", capacity}, {"allocatable", allocatable}}}};
}

nlohmann::json NodeAnnotationsPatch(const NodePublication& publication) {
  return {{"metadata",
           {{"annotations", contract::EncodeNodeLayout(publication.layout)}}}};
}

KubeNodePublisher::KubeNodePublisher(kube::KubeClient* client, std::string node)
    : client_(client), node_(std::move(node)) {}

Status KubeNodePublisher::Publish(const NodePublication& publication) {
  StatusOr<nlohmann::json> status = client_->Patch(
      kube::Resource::Nodes(), "", node_, kube::PatchType::kMerge,
      NodeStatusPatch(publication), "status");
  if (!status.ok()) {
    return status.status().WithContext("patching status of node " + node_);
  }
  StatusOr<nlohmann::json> annotations = client_->Patch(
      kube::Resource::Nodes(), "", node_, kube::PatchType::kMerge,
      NodeAnnotationsPatch(publication), "");
  if (!annotations.ok()) {
    return annotations.status().WithContext("annotating node " + node_);
  }
  return OkStatus();
}

}  // namespace gcushare::deviceplugin
