// The device IDs the plugin advertises to kubelet for enflame.com/gcu-memory:
// one ID per memory unit per card, kept short so that as many as possible
// fit in kubelet's 4 MiB ListAndWatch message (docs/protocols.md 1.5).
//
// An ID is "<card>-<n>": the card index and the unit number 0..units-1, both
// in lower-case base 36 ("0-0", "f-2ixr"). 16 cards x 96000 units still give
// IDs of at most 6 characters.
//
// DeviceListBytes() computes the encoded size of the ListAndWatchResponse
// from the inventory alone, without building it, so that the plugin can
// decide between device-ID mode and node-status mode before allocating
// anything (see advertise_mode.h).
//
// Pure functions; thread-safe; never throw.
#ifndef GCUSHARE_DEVICE_PLUGIN_DEVICE_IDS_H_
#define GCUSHARE_DEVICE_PLUGIN_DEVICE_IDS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "contract/memory_unit.h"
#include "device-plugin/api/api.pb.h"
#include "efml/card.h"
#include "status/status.h"

namespace gcushare::deviceplugin {

// Device health strings of the device plugin API.
inline constexpr std::string_view kHealthy = "Healthy";
inline constexpr std::string_view kUnhealthy = "Unhealthy";

// "<card base 36>-<unit base 36>".
std::string DeviceId(uint32_t card, uint64_t unit);

struct ParsedDeviceId {
  uint32_t card = 0;
  uint64_t unit = 0;
};

// InvalidArgument (quoting the ID) for anything DeviceId() cannot produce.
StatusOr<ParsedDeviceId> ParseDeviceId(std::string_view id);

// Units of `unit` on `card` (rounded down).
uint64_t CardUnits(const efml::Card& card, contract::MemoryUnit unit);

// Total units over every card.
uint64_t TotalUnits(const efml::Inventory& inventory,
                    contract::MemoryUnit unit);

// Every ID of every card, in card order, with the card's health and NUMA
// node (topology only when the NUMA node is known).
v1beta1::ListAndWatchResponse BuildDeviceList(const efml::Inventory& inventory,
                                              contract::MemoryUnit unit);

enum class HealthAssumption {
  kAsIs,          // The cards' current health.
  kAllUnhealthy,  // Every card unhealthy: the largest the list can get.
};

// ByteSizeLong() of BuildDeviceList(inventory, unit) (with the health
// assumption applied), computed arithmetically in O(cards).
size_t DeviceListBytes(const efml::Inventory& inventory,
                       contract::MemoryUnit unit, HealthAssumption health);

}  // namespace gcushare::deviceplugin

#endif  // GCUSHARE_DEVICE_PLUGIN_DEVICE_IDS_H_
