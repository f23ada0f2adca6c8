// resource.k8s.io/v1, as kube-apiserver 1.34-1.36 serves it
// (pkg/registry/resource/{resourceslice,resourceclaim,resourceclaimtemplate,
// deviceclass}/strategy.go):
//   resourceslices: cluster-scoped; field selectors metadata.name,
//     spec.nodeName, spec.driver; metadata.generation 1 on create, +1 on
//     every spec change.
//   resourceclaims: namespaced; status subresource. Create empties status;
//     a main-resource update keeps the stored status; a /status update keeps
//     the stored spec and resets metadata as ResetObjectMetaForStatus does
//     (labels, annotations, finalizers, ownerReferences, generation,
//     deletionTimestamp stay as stored). Requests default allocationMode
//     ExactCount and count 1.
//   resourceclaimtemplates: namespaced; the same request defaults in
//     spec.spec.
//   deviceclasses: cluster-scoped; metadata.generation as for slices.
// Each kind drops the fields of disabled gates (dra_dropped_fields.h) and
// validates as dra_validation.h says.
//
// Thread-safety: the kinds are immutable values (the gates are copied in).
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_DRA_KINDS_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_DRA_KINDS_H_

#include <vector>

#include "tests/peers/apiserver/feature_gates.h"
#include "tests/peers/apiserver/resource_kind.h"

namespace gcushare::apiserver {

ResourceKind ResourceSliceKind(const FeatureGates& gates);
ResourceKind ResourceClaimKind(const FeatureGates& gates);
ResourceKind ResourceClaimTemplateKind(const FeatureGates& gates);
ResourceKind DeviceClassKind(const FeatureGates& gates);

// All four.
std::vector<ResourceKind> DraKinds(const FeatureGates& gates);

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_DRA_KINDS_H_
