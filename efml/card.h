// The card model shared by every GCUShare component.
//
// A Card is one physical Enflame GCU as discovered on this host. Cards are
// plain values: copy them freely. An Inventory is everything discovery found:
// the cards, ordered by index, and the shared control device nodes that every
// container using any card needs (e.g. /dev/gcuctl where the driver has it).
#ifndef GCUSHARE_EFML_CARD_H_
#define GCUSHARE_EFML_CARD_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "status/status.h"

namespace gcushare::efml {

// A character device node on the host, e.g. /dev/gcu0 or /dev/gcuctl.
struct DeviceNode {
  std::string path;
  // Device numbers, when known (scan/EFML read them from sysfs or stat();
  // the fake backend fills them only when the path exists on the host).
  std::optional<uint32_t> major;
  std::optional<uint32_t> minor;

  friend bool operator==(const DeviceNode&, const DeviceNode&) = default;
};

struct Card {
  uint32_t index = 0;            // The driver's index: /dev/gcu<index>.
  std::string uuid;              // Stable identity, e.g. "GCU-U0000000001".
  uint64_t memory_mib = 0;       // Total card memory in MiB; always > 0.
  DeviceNode device;             // Usually /dev/gcu<index>.
  std::optional<int> numa_node;  // Absent when unknown or not NUMA.
  std::string pci_address;       // "0000:01:00.0"; empty when unknown.
  bool healthy = true;

  friend bool operator==(const Card&, const Card&) = default;
};

struct Inventory {
  std::vector<Card> cards;                // Sorted by index, unique.
  std::vector<DeviceNode> control_nodes;  // Shared by all cards; may be empty.

  friend bool operator==(const Inventory&, const Inventory&) = default;
};

// Default device node path for a card index: "/dev/gcu<index>".
std::string DefaultDevicePath(uint32_t index);

// Checks the invariants every backend must deliver: indexes unique, memory
// positive, UUID non-empty and unique, device path absolute. Sorts cards by
// index. The error names the offending card ("card 3: memory must be
// positive").
Status NormalizeInventory(Inventory& inventory);

}  // namespace gcushare::efml

#endif  // GCUSHARE_EFML_CARD_H_
