#include "efml/card_table.h"

#include <algorithm>
#include <array>
#include <vector>

namespace gcushare::efml {
namespace {

std::string DeviceText(const DeviceNode& node) {
  std::string text = node.path;
  if (node.major.has_value() && node.minor.has_value()) {
    text += " (" + std::to_string(*node.major) + ":" +
            std::to_string(*node.minor) + ")";
  }
  return text;
}

}  // namespace

std::string FormatCardTable(const Inventory& inventory) {
  using Row = std::array<std::string, 7>;
  std::vector<Row> rows = {
      {"INDEX", "UUID", "MEMORY", "NUMA", "PCI", "DEVICE", "HEALTH"}};
  for (const Card& card : inventory.cards) {
    rows.push_back({std::to_string(card.index), card.uuid,
                    std::to_string(card.memory_mib) + " MiB",
                    card.numa_node ? std::to_string(*card.numa_node) : "-",
                    card.pci_address.empty() ? "-" : card.pci_address,
                    DeviceText(card.device),
                    card.healthy ? "healthy" : "UNHEALTHY"});
  }
  std::array<size_t, 7> width{};
  for (const Row& row : rows) {
    for (size_t i = 0; i < row.size(); ++i) {
      width[i] = std::max(width[i], row[i].size());
    }
  }
  std::string out;
  for (const Row& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size())
        line += std::string(width[i] - row[i].size() + 2, ' ');
    }
    out += line + "\n";
  }
  for (const DeviceNode& node : inventory.control_nodes) {
    out += "control node: " + DeviceText(node) + "\n";
  }
  return out;
}

}  // namespace gcushare::efml
