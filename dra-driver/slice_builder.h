// Builds the ResourceSlices that describe this node's GCU cards to the
// scheduler (resource.k8s.io/v1): one pool named after the node, one device
// "gcu-<index>" per card, split into slices of at most 128 devices (64 when
// any device carries a taint: the 1.35+ limit for slices using taints).
//
// Each device has the attributes uuid (string), index (int), model
// (string), numaNode (int, only when known) and driverVersion (version, a
// semver string), and the capacity "memory" (the card memory, "16Gi" or
// "<n>Mi"). With consumable capacity (KEP-5075) it also has
// allowMultipleAllocations: true and
//   memory.requestPolicy {default: D, validRange {min: U, step: U, max: D}}
// where U is the memory unit in whole bytes (memory_quantity.h explains why
// whole bytes) and D the card memory rounded down to a multiple of U, so a
// claim that names no memory takes the whole card.
//
// Unhealthy cards: with taint_unhealthy the device is published with the
// taint {key: gcu.enflame.com/unhealthy, effect: NoSchedule} (DRADeviceTaints,
// beta in 1.36); without it the device is left out of the slices, as the
// NVIDIA DRA driver does without taints ("removes unhealthy devices from
// the available ResourceSlices"), so that nothing new is scheduled on it.
// Claims already allocated on it keep their allocation either way.
//
// Slices are whole objects ready to POST: metadata.generateName
// "<node>-gcu.enflame.com-", the Node as controlling owner, spec.nodeName,
// spec.driver, spec.pool {name, generation, resourceSliceCount}. A node
// without cards (or with only unhealthy ones, untainted) gets one empty
// slice: an empty pool tells the scheduler the driver is up.
//
// Pure; thread-safe. Bad options give InvalidArgument and no slices.
#ifndef GCUSHARE_DRA_DRIVER_SLICE_BUILDER_H_
#define GCUSHARE_DRA_DRIVER_SLICE_BUILDER_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "contract/memory_unit.h"
#include "efml/card.h"
#include "status/status.h"

namespace gcushare::dra {

inline constexpr std::string_view kUnhealthyTaintKey =
    "gcu.enflame.com/unhealthy";
inline constexpr size_t kMaxDevicesPerSlice = 128;
inline constexpr size_t kMaxDevicesPerSliceWithTaints = 64;

struct SliceBuilderOptions {
  std::string node_name;       // Required: pool name and spec.nodeName.
  std::string node_uid;        // Required: the owner reference's uid.
  std::string driver_version;  // Required: semver, e.g. "1.4.0".
  std::string card_model;      // Required: e.g. "S60".
  contract::MemoryUnit memory_unit;
  bool consumable_capacity = true;
  bool taint_unhealthy = false;
};

// The desired slices of `inventory`, each with pool.generation =
// `generation`.
StatusOr<std::vector<nlohmann::json>> BuildSlices(
    const efml::Inventory& inventory, const SliceBuilderOptions& options,
    int64_t generation);

// One card as a ResourceSlice device (no validation of `options`).
nlohmann::json BuildDevice(const efml::Card& card,
                           const SliceBuilderOptions& options);

// "generateName" of the node's slices: "<node>-gcu.enflame.com-".
std::string SliceNamePrefix(std::string_view node_name);

// Whether `text` is a semantic version 2.0.0 ("1.2.3", "1.2.3-rc.1+b5").
bool IsSemver(std::string_view text);

}  // namespace gcushare::dra

#endif  // GCUSHARE_DRA_DRIVER_SLICE_BUILDER_H_
