#include "extender/api_permissions.h"

namespace gcushare::extender {

kube::ApiPermissions ExtenderClusterPermissions() {
  return {
      // get: bind reads the pod, and reads it back after a failed Binding;
      // list, watch: the pod informer (CardCache); list: the new binder's
      // catch-up (a consistent list, docs/ha.md).
      {"/pods", {"get", "list", "watch"}},
      // create: bind's Binding (which carries the assignment annotations).
      {"/pods/binding", {"create"}},
      // list, watch: the sharing-node informer.
      {"/nodes", {"list", "watch"}},
      // create: GCUAssigned at bind, GCUAssignmentUnreadable (EventQueue).
      {"/events", {"create"}},
  };
}

kube::ApiPermissions ExtenderLeasePermissions() {
  return {
      // get, update: leader election reads and renews its one Lease (the
      // chart's Role names it); create: the first replica creates it (RBAC
      // cannot limit create to a name).
      {"coordination.k8s.io/leases", {"create", "get", "update"}},
  };
}

kube::ApiPermissions ExtenderApiPermissions() {
  kube::ApiPermissions all = ExtenderClusterPermissions();
  for (auto& [key, verbs] : ExtenderLeasePermissions()) {
    all[key].insert(verbs.begin(), verbs.end());
  }
  return all;
}

}  // namespace gcushare::extender
