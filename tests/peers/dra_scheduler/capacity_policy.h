// A device capacity as a ResourceSlice publishes it
// (resource.k8s.io/v1 DeviceCapacity: value plus an optional requestPolicy),
// and how much of it one allocation consumes (KEP-5075, consumable
// capacity), with the rules of the upstream allocator
// (dynamic-resource-allocation/structured, consumable_capacity.go):
//   - no request: requestPolicy.default, or the full value without one;
//   - a request and no policy: the request itself;
//   - validRange with min: below min -> min; with step -> min +
//     ceil((r - min) / step) * step, in the step's format; without step the
//     request itself;
//   - validValues: the first value >= the request (else the request);
// and the policy check on the consumed amount: the default always passes;
// validRange: above max, or not min + k*step, violates; validValues: not in
// the list violates. Arithmetic is in milli units when min, max or step has
// a fraction (all exact in milli, step >= 1m; the fractional-range rule of
// 1.36), otherwise on whole values rounded up (Quantity.Value()).
//
// Pure functions; thread-safe. Parsing returns InvalidArgument naming the
// field for malformed quantities.
#ifndef GCUSHARE_TESTS_PEERS_DRA_SCHEDULER_CAPACITY_POLICY_H_
#define GCUSHARE_TESTS_PEERS_DRA_SCHEDULER_CAPACITY_POLICY_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "status/status.h"
#include "tests/peers/dra_scheduler/quantity.h"

namespace gcushare::dra_scheduler {

struct CapacityRange {
  Quantity min;  // Required by the API when validRange is set.
  std::optional<Quantity> max;
  std::optional<Quantity> step;
};

struct RequestPolicy {
  std::optional<Quantity> default_value;
  std::vector<Quantity> valid_values;  // Ascending.
  std::optional<CapacityRange> valid_range;
};

struct DeviceCapacity {
  Quantity value;
  std::optional<RequestPolicy> policy;
};

// {"value": "16Gi", "requestPolicy": {...}}.
StatusOr<DeviceCapacity> ParseDeviceCapacity(const nlohmann::json& capacity);

// calculateConsumedCapacity: `requested` null when the claim does not ask.
Quantity ConsumedCapacity(const Quantity* requested,
                          const DeviceCapacity& capacity);

// violatesPolicy, applied to the consumed (rounded) amount.
bool ViolatesPolicy(const Quantity& consumed, const DeviceCapacity& capacity);

}  // namespace gcushare::dra_scheduler

#endif  // GCUSHARE_TESTS_PEERS_DRA_SCHEDULER_CAPACITY_POLICY_H_
