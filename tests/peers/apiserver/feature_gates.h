// The kube-apiserver feature gates the stand-in honours, and the parser of
// the --feature-gates flag ("Gate=true,Other=false", as component-base reads
// it: comma-separated, spaces around terms ignored, values per Go's
// strconv.ParseBool).
//
// Gates (defaults as in kube-apiserver 1.36, where both are beta and on):
//   DRAConsumableCapacity (KEP-5075): off, the server drops (does not
//     reject) ResourceSlice devices[].allowMultipleAllocations and
//     devices[].capacity.*.requestPolicy, ResourceClaim(Template) request
//     capacity, and claim status results' shareID/consumedCapacity (and
//     status.devices[].shareID), unless the old object already used them.
//   DRAExtendedResource (KEP-5004): off, DeviceClass
//     spec.extendedResourceName is dropped the same way.
//
// Failure: Parse returns InvalidArgument for an unknown gate or a value that
// is not a boolean. Thread-safety: a value; Parse is a pure function.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_FEATURE_GATES_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_FEATURE_GATES_H_

#include <string_view>

#include "status/status.h"

namespace gcushare::apiserver {

struct FeatureGates {
  bool dra_consumable_capacity = true;
  bool dra_extended_resource = true;

  // Applies "A=true,B=false" on top of the defaults.
  static StatusOr<FeatureGates> Parse(std::string_view text);
};

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_FEATURE_GATES_H_
