// Validation of a consumable capacity's requestPolicy in a ResourceSlice
// device (KEP-5075), as pkg/apis/resource/validation does it for a device
// with allowMultipleAllocations: validValues (at most 10, ascending, each
// <= the capacity value, unique, containing default) xor validRange (min
// required and <= value, default within [min, max], max <= value, step > 0,
// min + step <= value, default and max multiples of step from min).
// Messages and field paths are upstream's; quantities are quoted as written.
//
// Thread-safety: pure function. Failure: errors appended to `errs`.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_REQUEST_POLICY_VALIDATION_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_REQUEST_POLICY_VALIDATION_H_

#include <string>
#include <vector>

#include "tests/peers/apiserver/api_status.h"
#include "tests/peers/apiserver/json.h"

namespace gcushare::apiserver {

// `capacity` is the device's capacity entry ({value, requestPolicy}),
// `policy` its requestPolicy, `path` the policy's field path.
void ValidateRequestPolicy(const Json& capacity, const Json& policy,
                           const std::string& path,
                           std::vector<FieldError>& errs);

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_REQUEST_POLICY_VALIDATION_H_
