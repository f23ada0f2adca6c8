#include "efml/card.h"

#include <algorithm>
#include <set>

namespace gcushare::efml {

std::string DefaultDevicePath(uint32_t index) {
  return "/dev/gcu" + std::to_string(index);
}

Status NormalizeInventory(Inventory& inventory) {
  std::sort(inventory.cards.begin(), inventory.cards.end(),
            [](const Card& a, const Card& b) { return a.index < b.index; });
  std::set<std::string> uuids;
  for (size_t i = 0; i < inventory.cards.size(); ++i) {
    const Card& card = inventory.cards[i];
    const std::string where = "card " + std::to_string(card.index);
    if (i > 0 && inventory.cards[i - 1].index == card.index) {
      return InvalidArgumentError(where + ": index appears more than once");
    }
    if (card.memory_mib == 0) {
      return InvalidArgumentError(where + ": memory must be positive");
    }
    if (card.uuid.empty()) {
      return InvalidArgumentError(where + ": uuid is empty");
    }
    if (!uuids.insert(card.uuid).second) {
      return InvalidArgumentError(where + ": uuid " + card.uuid +
                                  " is used by another card");
    }
    if (card.device.path.empty() || card.device.path[0] != '/') {
      return InvalidArgumentError(where + ": device path \"" +
                                  card.device.path + "\" is not absolute");
    }
  }
  for (const DeviceNode& node : inventory.control_nodes) {
    if (node.path.empty() || node.path[0] != '/') {
      return InvalidArgumentError("control node path \"" + node.path +
                                  "\" is not absolute");
    }
  }
  return OkStatus();
}

}  // namespace gcushare::efml
