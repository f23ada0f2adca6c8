// coordination.k8s.io/v1 Lease, as kube-apiserver serves it
// (pkg/registry/coordination/lease, pkg/apis/coordination/validation):
// namespaced, no subresources, field selectors metadata.name and
// metadata.namespace; spec {holderIdentity, leaseDurationSeconds,
// acquireTime, renewTime (MicroTime), leaseTransitions, strategy,
// preferredHolder} stored as written. Validation: leaseDurationSeconds > 0
// and leaseTransitions >= 0 when set. Optimistic concurrency (409 on a
// stale resourceVersion) is the generic update path's.
//
// Thread-safety: the returned kind is an immutable value.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_LEASE_KIND_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_LEASE_KIND_H_

#include <vector>

#include "tests/peers/apiserver/api_status.h"
#include "tests/peers/apiserver/json.h"
#include "tests/peers/apiserver/resource_kind.h"

namespace gcushare::apiserver {

ResourceKind LeaseKind();

// ValidateLeaseSpec's checks of a Lease.
std::vector<FieldError> ValidateLease(const Json& lease);

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_LEASE_KIND_H_
