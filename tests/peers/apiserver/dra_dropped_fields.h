// The registry's dropDisabledFields for resource.k8s.io/v1 objects: fields of
// a disabled feature gate are removed from the new object (not rejected),
// unless the old object already uses that feature (then an unrelated update
// must not strip them). On create `old` is nullptr.
//
//   DRAConsumableCapacity off: ResourceSlice spec.devices[].
//     allowMultipleAllocations and .capacity[*].requestPolicy; ResourceClaim
//     spec.devices.requests[].exactly.capacity and firstAvailable[].capacity
//     (same in a template's spec.spec); claim status.allocation.devices.
//     results[].shareID/consumedCapacity and status.devices[].shareID.
//   DRAExtendedResource off: DeviceClass spec.extendedResourceName.
//
// Thread-safety: pure functions on the given objects.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_DRA_DROPPED_FIELDS_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_DRA_DROPPED_FIELDS_H_

#include "tests/peers/apiserver/feature_gates.h"
#include "tests/peers/apiserver/json.h"

namespace gcushare::apiserver {

void DropDisabledSliceFields(const FeatureGates& gates, const Json* old,
                             Json& slice);
// Spec and status of a claim.
void DropDisabledClaimFields(const FeatureGates& gates, const Json* old,
                             Json& claim);
void DropDisabledClaimTemplateFields(const FeatureGates& gates, const Json* old,
                                     Json& tmpl);
void DropDisabledDeviceClassFields(const FeatureGates& gates, const Json* old,
                                   Json& device_class);

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_DRA_DROPPED_FIELDS_H_
