#include "extender/api_permissions.h"

namespace gcushare::extender {

kube::ApiPermissions ExtenderApiPermissions() {
  return {
      // get: bind reads the pod, and reads it back after a failed Binding;
      // list, watch: the pod informer (CardCache).
      {"/pods", {"get", "list", "watch"}},
      // create: bind's Binding (which carries the assignment annotations).
      {"/pods/binding", {"create"}},
      // list, watch: the sharing-node informer.
      {"/nodes", {"list", "watch"}},
      // create: GCUAssigned at bind, GCUAssignmentUnreadable (EventQueue).
      {"/events", {"create"}},
      // get, update: leader election's reads and conditional writes of its
      // one Lease (the chart's Role names it); create: the first replica
      // creates it (RBAC cannot limit create to a name). Only with
      // --leader-elect (docs/ha.md).
      {"coordination.k8s.io/leases", {"create", "get", "update"}},
  };
}

}  // namespace gcushare::extender
