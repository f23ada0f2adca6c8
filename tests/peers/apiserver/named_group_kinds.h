// The kinds the stand-in serves under /apis/<group>/<version>, with their
// strategies configured by the server's feature gates:
//   coordination.k8s.io/v1 leases (lease_kind.h).
//
// Thread-safety: pure function; the kinds are values.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_NAMED_GROUP_KINDS_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_NAMED_GROUP_KINDS_H_

#include <vector>

#include "tests/peers/apiserver/feature_gates.h"
#include "tests/peers/apiserver/resource_kind.h"

namespace gcushare::apiserver {

std::vector<ResourceKind> NamedGroupKinds(const FeatureGates& gates);

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_NAMED_GROUP_KINDS_H_
