#include "config-manager/api_permissions.h"

namespace gcushare::config_manager {

kube::ApiPermissions ConfigManagerApiPermissions() {
  return {
      // get: the extender's Service, by name, in its own namespace
      // (ResolveServiceUrl); the chart's Role names it in resourceNames.
      {"/services", {"get"}},
  };
}

}  // namespace gcushare::config_manager
