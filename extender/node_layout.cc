#include "extender/node_layout.h"

#include "contract/names.h"

namespace gcushare::extender {
namespace {

const nlohmann::json* Child(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

std::string StringAt(const nlohmann::json* map, std::string_view key) {
  if (map == nullptr || !map->is_object()) return "";
  auto it = map->find(std::string(key));
  if (it == map->end() || !it->is_string()) return "";
  return it->get<std::string>();
}

}  // namespace

std::string NotSharingNodeReason() {
  return "node is not a GCUShare node (label " +
         std::string(contract::kSharingNodeLabel) + "=" +
         std::string(contract::kSharingNodeLabelValue) + " missing)";
}

NodeLayout ParseNodeLayout(const nlohmann::json& node) {
  NodeLayout layout;
  const nlohmann::json* metadata = Child(node, "metadata");
  if (metadata != nullptr) layout.name = StringAt(metadata, "name");
  const nlohmann::json* labels =
      metadata ? Child(*metadata, "labels") : nullptr;
  const nlohmann::json* annotations =
      metadata ? Child(*metadata, "annotations") : nullptr;

  if (StringAt(labels, contract::kSharingNodeLabel) !=
      contract::kSharingNodeLabelValue) {
    layout.problem = NotSharingNodeReason();
    return layout;
  }
  layout.unit_text = StringAt(annotations, contract::kNodeMemoryUnit);
  std::string devices = StringAt(annotations, contract::kNodeDevices);
  if (layout.unit_text.empty() && devices.empty()) {
    layout.problem =
        "no GCU layout published on the node (is gcushare-device-plugin "
        "running there?)";
    return layout;
  }
  if (layout.unit_text.empty()) {
    layout.problem = "node annotation " +
                     std::string(contract::kNodeMemoryUnit) + " is missing";
    return layout;
  }
  auto unit = contract::MemoryUnit::Parse(layout.unit_text);
  if (!unit.ok()) {
    layout.problem =
        "node's GCU memory unit \"" + layout.unit_text +
        "\" is unknown (valid: " + std::string(contract::ValidMemoryUnits()) +
        ")";
    return layout;
  }
  layout.unit = *unit;
  if (devices.empty()) {
    layout.problem = "node annotation " + std::string(contract::kNodeDevices) +
                     " is missing";
    return layout;
  }
  auto cards = contract::DecodeNodeCards(devices);
  if (!cards.ok()) {
    layout.problem = "node annotation " + std::string(contract::kNodeDevices) +
                     " is malformed: " + cards.status().message();
    return layout;
  }
  layout.cards = std::move(*cards);
  return layout;
}

}  // namespace gcushare::extender
