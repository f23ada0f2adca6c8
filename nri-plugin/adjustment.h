// The ContainerAdjustment that gives a container exactly its cards
// (docs/architecture.md flow step 7). Pure.
//
// For each assigned card: a LinuxDevice /dev/gcu<index> with the host
// node's type, major/minor and mode. Every other card node /dev/gcu<N>
// (N digits) already in the container's spec is removed ("-/dev/gcuN"),
// whoever injected it (CDI, the device plugin). Control nodes such as
// /dev/gcuctl are not cards and are left alone. Environment:
// ENFLAME_VISIBLE_DEVICES, GCUSHARE_MEMORY_LIMIT_MB (shared containers),
// GCUSHARE_MEMORY_TOTAL_MB (when the card size is known) and
// GCUSHARE_MEMORY_UNIT.
#ifndef GCUSHARE_NRI_PLUGIN_ADJUSTMENT_H_
#define GCUSHARE_NRI_PLUGIN_ADJUSTMENT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "contract/memory_unit.h"
#include "nri-plugin/api/api.pb.h"
#include "nri-plugin/card_request.h"
#include "nri-plugin/device_nodes.h"

namespace gcushare::nri {

namespace api = ::nri::pkg::api::v1alpha1;

// "/dev/gcu3".
std::string CardDevicePath(uint32_t index);
// The index when `path` is /dev/gcu<digits>.
std::optional<uint32_t> CardIndexOfPath(std::string_view path);

struct AdjustmentInput {
  ContainerCards cards;
  // The host node of each card, in the order of cards.cards.
  std::vector<DeviceNodeInfo> nodes;
  contract::MemoryUnit unit;
  // The card's total memory in units, when known.
  std::optional<uint64_t> card_memory_units;
};

api::ContainerAdjustment BuildAdjustment(const AdjustmentInput& input,
                                         const api::Container& container);

// The cards `adjust` removes from `container` whose major:minor a
// device-cgroup allow rule of the container still covers (a rule naming it,
// or a wildcard). containerd removes only the device node, never a rule,
// and applies no rules from a plugin: such a card stays openable through
// mknod (the device plugin's --devices-from-nri keeps these rules from
// being added).
std::vector<uint32_t> RemovedCardsStillAllowed(
    const api::Container& container, const api::ContainerAdjustment& adjust);

}  // namespace gcushare::nri

#endif  // GCUSHARE_NRI_PLUGIN_ADJUSTMENT_H_
