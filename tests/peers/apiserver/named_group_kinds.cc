#include "tests/peers/apiserver/named_group_kinds.h"

#include "tests/peers/apiserver/lease_kind.h"

namespace gcushare::apiserver {

std::vector<ResourceKind> NamedGroupKinds(const FeatureGates& gates) {
  (void)gates;
  std::vector<ResourceKind> kinds;
  kinds.push_back(LeaseKind());
  return kinds;
}

}  // namespace gcushare::apiserver
