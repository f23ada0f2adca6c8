#include "nri-plugin/api_permissions.h"

namespace gcushare::nri {

kube::ApiPermissions NriPluginApiPermissions() {
  return {
      // list, watch: this node's pods (PodCache's informer); patch:
      // gcu-device-assigned=true (AssignedMarker).
      {"/pods", {"list", "watch", "patch"}},
      // list, watch: this node's GCU layout and unit (NodeInfoCache).
      {"/nodes", {"list", "watch"}},
      // create: GCUNotRequested and friends (EventQueue).
      {"/events", {"create"}},
  };
}

}  // namespace gcushare::nri
