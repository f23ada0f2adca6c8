// Validation of resource.k8s.io/v1 objects, as kube-apiserver's
// pkg/apis/resource/validation does it, for the rules real clients hit
// (field paths and messages as upstream's):
//   ResourceSlice: spec.driver required, <= 63 bytes, a DNS subdomain;
//     spec.pool.name required (<= 253, DNS subdomain parts);
//     pool.resourceSliceCount > 0, pool.generation >= 0; exactly one of
//     nodeName / nodeSelector / allNodes / perDeviceNodeSelection; at most
//     128 devices (64 when a device has taints or consumesCounters); device
//     names DNS labels and unique; at most 32 attributes and capacities per
//     device; attribute names C identifiers (<= 32) with an optional domain;
//     attribute values exactly one of int/bool/string/version, strings at
//     most 64 bytes, versions semver; capacity.requestPolicy only with
//     allowMultipleAllocations, and its rules (request_policy_validation.h:
//     validValues at most 10,
//     ascending, <= value, containing default; validRange min required and
//     <= value, default within [min, max], max <= value, step > 0,
//     min + step <= value, default and max multiples of step from min).
//     On update spec.driver, spec.pool.name and spec.nodeName are immutable.
//   ResourceClaim (and a template's spec.spec): at most 32 requests, names
//     DNS labels and unique; exactly one of exactly / firstAvailable;
//     exactly.deviceClassName required (a DNS subdomain); allocationMode
//     ExactCount (count > 0) or All (no count); at most 32 selectors.
//     On update the spec is immutable. Status: a new allocation has at most
//     32 results, each naming a request of the claim, a driver, a pool and a
//     device; an allocation, once set, is immutable (it may be cleared);
//     reservedFor has at most 256 entries with unique uids and needs an
//     allocation.
//   DeviceClass: at most 32 selectors; extendedResourceName a valid
//     extended resource name (domain-qualified, not kubernetes.io).
//
// Simplifications: CEL expressions are not compiled; values in "Invalid
// value" of structured fields are shown as JSON (Go shows %#v); quantities
// are quoted as written (Go shows their canonical form).
//
// Thread-safety: pure functions. Failure: the errors found, none when valid.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_DRA_VALIDATION_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_DRA_VALIDATION_H_

#include <vector>

#include "tests/peers/apiserver/api_status.h"
#include "tests/peers/apiserver/json.h"

namespace gcushare::apiserver {

// `old` is the stored slice on update, nullptr on create.
std::vector<FieldError> ValidateResourceSlice(const Json& slice,
                                              const Json* old);
// `old` is the stored claim on update (the spec must not change).
std::vector<FieldError> ValidateResourceClaim(const Json& claim,
                                              const Json* old);
// The status of `claim` against the stored `old` claim.
std::vector<FieldError> ValidateResourceClaimStatus(const Json& claim,
                                                    const Json& old);
std::vector<FieldError> ValidateResourceClaimTemplate(const Json& tmpl,
                                                      const Json* old);
std::vector<FieldError> ValidateDeviceClass(const Json& device_class);

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_DRA_VALIDATION_H_
