// Compares a ResourceSlice as stored by the API server with the one the
// driver wants, as the upstream resourceslice controller does
// (staging/src/k8s.io/dynamic-resource-allocation/resourceslice:
// semantic equality of spec.pool, nodeName and devices; DroppedFieldsError):
//   - SameSliceContent: the same spec (pool name, generation and count,
//     node, driver, devices), with quantities compared by amount ("1Gi" ==
//     "1024Mi"), a taint's server-set timeAdded ignored when the desired
//     taint has none, and fields the driver did not send ignored when they
//     hold their zero value (false, "", [], {}): a server default must not
//     make every sync an update;
//   - FindDroppedFields: which feature-gated fields the server dropped from
//     a slice it accepted (the gate is off on kube-apiserver): consumable
//     capacity (allowMultipleAllocations or a capacity's requestPolicy
//     gone: DRAConsumableCapacity) and device taints (DRADeviceTaints).
//
// Pure functions on JSON objects; thread-safe. Missing or mistyped fields
// compare as absent; nothing throws.
#ifndef GCUSHARE_DRA_DRIVER_SLICE_DIFF_H_
#define GCUSHARE_DRA_DRIVER_SLICE_DIFF_H_

#include <nlohmann/json.hpp>
#include <string>

namespace gcushare::dra {

// The gated fields a server dropped.
struct DroppedFields {
  bool consumable_capacity = false;  // DRAConsumableCapacity is off.
  bool taints = false;               // DRADeviceTaints is off.

  bool any() const { return consumable_capacity || taints; }
  // "DRAConsumableCapacity DRADeviceTaints", or "" when none.
  std::string DisabledFeatures() const;
  DroppedFields& operator|=(const DroppedFields& other) {
    consumable_capacity = consumable_capacity || other.consumable_capacity;
    taints = taints || other.taints;
    return *this;
  }
};

// True when `stored` holds what `desired` asks (see the file comment).
bool SameSliceContent(const nlohmann::json& desired,
                      const nlohmann::json& stored);

// The gated fields present in `desired` but missing from `stored`, device
// by device (devices matched by name).
DroppedFields FindDroppedFields(const nlohmann::json& desired,
                                const nlohmann::json& stored);

}  // namespace gcushare::dra

#endif  // GCUSHARE_DRA_DRIVER_SLICE_DIFF_H_
