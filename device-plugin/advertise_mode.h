// How the plugin advertises enflame.com/gcu-memory (docs/node-agents.md
// "Advertise modes: any node size at any unit"):
//
//   device-ID mode: register with kubelet and list one device ID per unit in
//     ListAndWatch; kubelet counts and hands out the IDs (Allocate).
//   node-status mode: when that list would not fit kubelet's 4 MiB message
//     limit (docs/protocols.md 1.5), do not register; patch the node's status
//     capacity and allocatable enflame.com/gcu-memory instead, and leave the
//     hand-out to the NRI plugin.
//
// The decision uses the largest the list can become (every card unhealthy:
// "Unhealthy" is two bytes longer than "Healthy"), so that a health change
// never pushes a list past the budget. The default budget is 3.5 MiB: an
// eighth of headroom under kubelet's 4 MiB for gRPC framing and for a card
// that appears later, while the vendor's largest node (8 x 16 GiB at 0.001,
// 128,000 IDs, at most 3.2 MiB) still gets device IDs.
//
// Pure functions; thread-safe.
#ifndef GCUSHARE_DEVICE_PLUGIN_ADVERTISE_MODE_H_
#define GCUSHARE_DEVICE_PLUGIN_ADVERTISE_MODE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "contract/memory_unit.h"
#include "efml/card.h"
#include "status/status.h"

namespace gcushare::deviceplugin {

// kubelet's gRPC receive limit (grpc-go's default).
inline constexpr size_t kKubeletMaxMessageBytes = 4 * 1024 * 1024;
// Largest ListAndWatch message the plugin sends in auto mode.
inline constexpr size_t kDefaultListBudgetBytes = 3584 * 1024;

enum class AdvertiseMode { kDeviceIds, kNodeStatus };

// What --advertise-mode asks for.
enum class AdvertiseModeFlag { kAuto, kDeviceIds, kNodeStatus };

// "device-ids" or "node-status".
std::string_view AdvertiseModeName(AdvertiseMode mode);

// "auto", "device-ids" or "node-status"; InvalidArgument listing them
// otherwise.
StatusOr<AdvertiseModeFlag> ParseAdvertiseModeFlag(std::string_view text);

struct ModeDecision {
  AdvertiseMode mode = AdvertiseMode::kDeviceIds;
  uint64_t device_ids = 0;      // IDs device-ID mode lists (total units).
  size_t worst_list_bytes = 0;  // Its encoded size, all cards unhealthy.
  std::string reason;           // One line for the log.
};

// Chooses the mode for `inventory` at `unit`. Forcing device-ID mode when
// even the worst-case list exceeds kubelet's 4 MiB limit is
// FailedPrecondition (kubelet would reject every message).
StatusOr<ModeDecision> DecideMode(
    const efml::Inventory& inventory, contract::MemoryUnit unit,
    AdvertiseModeFlag flag, size_t budget_bytes = kDefaultListBudgetBytes);

}  // namespace gcushare::deviceplugin

#endif  // GCUSHARE_DEVICE_PLUGIN_ADVERTISE_MODE_H_
