// The Kubernetes API calls gcushare-config-manager makes, as RBAC names them:
// its KubeClient is wrapped in kube::PermissionCheckingKubeClient with this
// declaration (an undeclared call fails at once), and the chart's RBAC test
// requires the chart to grant exactly this. Change both together.
#ifndef GCUSHARE_CONFIG_MANAGER_API_PERMISSIONS_H_
#define GCUSHARE_CONFIG_MANAGER_API_PERMISSIONS_H_

#include "kube/api_permissions.h"

namespace gcushare::config_manager {

kube::ApiPermissions ConfigManagerApiPermissions();

}  // namespace gcushare::config_manager

#endif  // GCUSHARE_CONFIG_MANAGER_API_PERMISSIONS_H_
