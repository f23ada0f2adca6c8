// The stand-in scheduler's structured-parameters allocator: finds devices on
// one node for a pod's ResourceClaims (resource.k8s.io/v1) and writes each
// claim's status.allocation, following the upstream allocator
// (dynamic-resource-allocation/structured) with consumable capacity
// (KEP-5075):
//   - pools from device_pools.h (highest generation; incomplete pools are
//     skipped for ExactCount and an error for All);
//   - a device must match every selector of the request's DeviceClass and
//     of the request (device_selector.h; compile and runtime errors are
//     errors: "class <c>: selector #<i>: CEL runtime error: ...");
//   - ExactCount takes `count` (default 1) distinct devices per request, All
//     takes every matching device (at least one);
//   - a device without allowMultipleAllocations is exclusive: unusable when
//     any claim holds it (existing or in this pass); its capacity must cover
//     a capacity request, and asking for a capacity it lacks excludes it;
//   - a device with allowMultipleAllocations is unusable only when held
//     whole; each allocation consumes, per capacity, the amount
//     capacity_policy.h computes, which must pass the policy and keep the
//     sum over existing and in-pass allocations <= value; its results get a
//     fresh shareID and consumedCapacity (every capacity of the device);
//   - the search backtracks over device choices in pool/slice order.
// Not supported (an error naming the claim): firstAvailable, constraints,
// adminAccess.
//
// Ownership: holds copies of its inputs; `share_ids` is borrowed.
// Thread-compatible. Failure: kInvalidArgument for broken claims, classes
// or slices (the real scheduler's statusError); "does not fit" is not an
// error but AllocationOutcome::fits == false.
#ifndef GCUSHARE_TESTS_PEERS_DRA_SCHEDULER_ALLOCATOR_H_
#define GCUSHARE_TESTS_PEERS_DRA_SCHEDULER_ALLOCATOR_H_

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "status/status.h"
#include "tests/peers/dra_scheduler/quantity.h"
#include "tests/peers/dra_scheduler/share_id.h"

namespace gcushare::dra_scheduler {

// What existing allocations hold, by device key "driver/pool/device".
struct AllocatedDevices {
  std::set<std::string> exclusive;  // Results without a shareID.
  // Results with a shareID: the sum of consumedCapacity per capacity name.
  std::map<std::string, std::map<std::string, Quantity>> consumed;
};

// From the claims' status.allocation (claims without one are skipped).
// A consumedCapacity that does not parse is InvalidArgument.
StatusOr<AllocatedDevices> GatherAllocatedDevices(
    const std::vector<nlohmann::json>& claims);

struct AllocationOutcome {
  bool fits = false;
  // One status.allocation per claim, in the order given (when fits).
  std::vector<nlohmann::json> allocations;
};

class Allocator {
 public:
  Allocator(std::vector<nlohmann::json> slices,
            std::vector<nlohmann::json> classes, AllocatedDevices allocated,
            ShareIdSource* share_ids);

  // Allocates all `claims` together on `node` (a core/v1 Node).
  StatusOr<AllocationOutcome> Allocate(
      const nlohmann::json& node, const std::vector<nlohmann::json>& claims);

 private:
  const nlohmann::json* FindClass(const std::string& name) const;

  std::vector<nlohmann::json> slices_;
  std::vector<nlohmann::json> classes_;
  AllocatedDevices allocated_;
  ShareIdSource* share_ids_;
};

}  // namespace gcushare::dra_scheduler

#endif  // GCUSHARE_TESTS_PEERS_DRA_SCHEDULER_ALLOCATOR_H_
