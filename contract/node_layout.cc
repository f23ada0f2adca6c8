#include "contract/node_layout.h"

#include <string>
#include <string_view>

#include "contract/names.h"

namespace gcushare::contract {
namespace {

// The annotation's string value; "" when absent or not a string.
std::string Annotation(const nlohmann::json& annotations,
                       std::string_view key) {
  if (!annotations.is_object()) return "";
  auto it = annotations.find(std::string(key));
  if (it == annotations.end() || !it->is_string()) return "";
  return it->get<std::string>();
}

Status Missing(std::string_view key) {
  return InvalidArgumentError("node annotation " + std::string(key) +
                              " is missing");
}

}  // namespace

nlohmann::json EncodeNodeLayout(const NodeLayout& layout) {
  return {{std::string(kNodeMemoryUnit), layout.unit.ToString()},
          {std::string(kNodeDevices), EncodeNodeCards(layout.cards)}};
}

StatusOr<NodeLayout> DecodeNodeLayout(const nlohmann::json& annotations) {
  const std::string unit_text = Annotation(annotations, kNodeMemoryUnit);
  const std::string devices = Annotation(annotations, kNodeDevices);
  if (unit_text.empty() && devices.empty()) {
    return NotFoundError(
        "no GCU layout published on the node (is gcushare-device-plugin "
        "running there?)");
  }
  if (unit_text.empty()) return Missing(kNodeMemoryUnit);
  NodeLayout layout;
  StatusOr<MemoryUnit> unit = MemoryUnit::Parse(unit_text);
  if (!unit.ok()) {
    return InvalidArgumentError(
        "node's GCU memory unit \"" + unit_text +
        "\" is unknown (valid: " + std::string(ValidMemoryUnits()) + ")");
  }
  layout.unit = *unit;
  if (devices.empty()) return Missing(kNodeDevices);
  StatusOr<std::vector<NodeCard>> cards = DecodeNodeCards(devices);
  if (!cards.ok()) {
    return InvalidArgumentError("node annotation " + std::string(kNodeDevices) +
                                " is malformed: " + cards.status().message());
  }
  layout.cards = std::move(*cards);
  return layout;
}

}  // namespace gcushare::contract
