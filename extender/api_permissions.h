// The Kubernetes API calls gcushare-scheduler-extender makes, as RBAC names
// them: its KubeClient is wrapped in kube::PermissionCheckingKubeClient with
// this declaration (an undeclared call fails at once), and the chart's RBAC
// test requires the chart to grant exactly this. Change both together.
#ifndef GCUSHARE_EXTENDER_API_PERMISSIONS_H_
#define GCUSHARE_EXTENDER_API_PERMISSIONS_H_

#include "kube/api_permissions.h"

namespace gcushare::extender {

kube::ApiPermissions ExtenderApiPermissions();

}  // namespace gcushare::extender

#endif  // GCUSHARE_EXTENDER_API_PERMISSIONS_H_
