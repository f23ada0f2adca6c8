// The Kubernetes API calls gcushare-scheduler-extender makes, as RBAC names
// them: its KubeClient is wrapped in kube::PermissionCheckingKubeClient with
// ExtenderApiPermissions() (an undeclared call fails at once), and the
// chart's RBAC test requires the chart to grant exactly this: the cluster
// part in its ClusterRole, the Lease part (leader election, several
// replicas only) in a Role of its namespace. Change both together.
#ifndef GCUSHARE_EXTENDER_API_PERMISSIONS_H_
#define GCUSHARE_EXTENDER_API_PERMISSIONS_H_

#include "kube/api_permissions.h"

namespace gcushare::extender {

// Pods, bindings, nodes, events: the ClusterRole.
kube::ApiPermissions ExtenderClusterPermissions();
// Its leader-election Lease: a Role in the extender's namespace.
kube::ApiPermissions ExtenderLeasePermissions();
// Both.
kube::ApiPermissions ExtenderApiPermissions();

}  // namespace gcushare::extender

#endif  // GCUSHARE_EXTENDER_API_PERMISSIONS_H_
