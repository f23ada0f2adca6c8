// The devices a node can use, gathered from ResourceSlices (JSON as the API
// server stores them) the way the upstream allocator gathers pools
// (dynamic-resource-allocation/structured, pools.go):
//   - a slice counts for the node when spec.nodeName is the node,
//     spec.allNodes is true, or spec.nodeSelector matches the node
//     (perDeviceNodeSelection: the same test per device);
//   - slices group into pools by (driver, pool.name); only the slices of
//     the highest pool.generation count;
//   - a pool is incomplete when the number of those slices differs from
//     their pool.resourceSliceCount, and invalid when a device name repeats.
// Pools come sorted by driver and name; devices keep slice order.
//
// Pure functions; thread-safe. Malformed slices (no driver, no pool name, a
// capacity that does not parse) are InvalidArgument naming the slice.
#ifndef GCUSHARE_TESTS_PEERS_DRA_SCHEDULER_DEVICE_POOLS_H_
#define GCUSHARE_TESTS_PEERS_DRA_SCHEDULER_DEVICE_POOLS_H_

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "status/status.h"
#include "tests/peers/dra_scheduler/capacity_policy.h"

namespace gcushare::dra_scheduler {

struct PoolDevice {
  std::string driver;
  std::string pool;
  std::string name;
  nlohmann::json device;  // The slice's device entry.
  bool allow_multiple_allocations = false;
  std::map<std::string, DeviceCapacity> capacity;  // As the slice names them.
  // The node selector an allocation of this device records: matchFields
  // metadata.name for node-local slices, the slice's nodeSelector, or null.
  nlohmann::json allocation_node_selector;
  bool node_local = false;  // The selector names one node (nodeName).

  // "driver/pool/device", the key of allocated-device bookkeeping.
  std::string Key() const { return driver + "/" + pool + "/" + name; }
};

struct DevicePool {
  std::string driver;
  std::string name;
  bool incomplete = false;
  std::string invalid_reason;  // Non-empty: the pool is invalid.
  std::vector<PoolDevice> devices;
};

// Whether a core/v1 NodeSelector matches `node` (labels through
// matchExpressions In/NotIn/Exists/DoesNotExist, metadata.name through
// matchFields In/NotIn); terms are ORed.
bool NodeSelectorMatches(const nlohmann::json& selector,
                         const nlohmann::json& node);

StatusOr<std::vector<DevicePool>> PoolsForNode(
    const std::vector<nlohmann::json>& slices, const nlohmann::json& node);

}  // namespace gcushare::dra_scheduler

#endif  // GCUSHARE_TESTS_PEERS_DRA_SCHEDULER_DEVICE_POOLS_H_
