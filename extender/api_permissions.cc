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
  };
}

}  // namespace gcushare::extender
