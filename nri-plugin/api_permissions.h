// The Kubernetes API calls gcushare-nri-plugin makes, as RBAC names them:
// its KubeClient is wrapped in kube::PermissionCheckingKubeClient with this
// declaration (an undeclared call fails at once), and the chart's RBAC test
// requires the chart to grant exactly this. Change both together.
#ifndef GCUSHARE_NRI_PLUGIN_API_PERMISSIONS_H_
#define GCUSHARE_NRI_PLUGIN_API_PERMISSIONS_H_

#include "kube/api_permissions.h"

namespace gcushare::nri {

kube::ApiPermissions NriPluginApiPermissions();

}  // namespace gcushare::nri

#endif  // GCUSHARE_NRI_PLUGIN_API_PERMISSIONS_H_
