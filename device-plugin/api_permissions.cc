#include "device-plugin/api_permissions.h"

namespace gcushare::deviceplugin {

kube::ApiPermissions DevicePluginApiPermissions() {
  return {
      // list, watch: this node's pods (KubePodSource, its informer and its
      // fresh list at Allocate); patch: gcu-device-assigned=true
      // (AssignedMarker).
      {"/pods", {"list", "watch", "patch"}},
      // patch: the card layout annotations (KubeNodePublisher).
      {"/nodes", {"patch"}},
      // patch: capacity/allocatable of enflame.com/gcu-count.
      {"/nodes/status", {"patch"}},
  };
}

}  // namespace gcushare::deviceplugin
