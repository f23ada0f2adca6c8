#include "dra-driver/api_permissions.h"

namespace gcushare::dra {

kube::ApiPermissions DraDriverApiPermissions() {
  return {
      // get: a claim the kubelet asks to prepare (its allocation and uid).
      {"resource.k8s.io/resourceclaims", {"get"}},
      // The node's ResourceSlices (the slice publisher): list and watch
      // them by spec.nodeName and spec.driver, create, update and delete.
      {"resource.k8s.io/resourceslices",
       {"list", "watch", "create", "update", "delete"}},
      // get: the Node's uid, the slices' owner.
      {"/nodes", {"get"}},
      // create: the Warning Event on the Node when the API server drops
      // the consumable-capacity fields.
      {"/events", {"create"}},
  };
}

}  // namespace gcushare::dra
