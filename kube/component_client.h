// ComponentClient: a GCUShare daemon's connection to the API server, set up
// the one way every daemon does: a CurlKubeClient for the resolved config,
// behind a PermissionCheckingKubeClient that holds the component to the API
// calls it declared (api_permissions.h).
//
// Ownership: owns the curl client; api() is valid for the object's life.
// Thread-safety: as CurlKubeClient (api() may be called from any thread).
// Failure: Connect returns CurlKubeClient::Create's status, and
// ConnectFromFlag also ResolveConfig's; nothing is left behind on failure.
#ifndef GCUSHARE_KUBE_COMPONENT_CLIENT_H_
#define GCUSHARE_KUBE_COMPONENT_CLIENT_H_

#include <memory>
#include <string>

#include "kube/api_permissions.h"
#include "kube/config.h"
#include "kube/curl_kube_client.h"
#include "kube/kube_client.h"
#include "status/status.h"

namespace gcushare::kube {

class ComponentClient {
 public:
  // Connects `component` (its name in PermissionDenied errors) to the API
  // server of `config`, allowed the calls of `permissions`.
  static StatusOr<std::unique_ptr<ComponentClient>> Connect(
      const ClientConfig& config, std::string component,
      ApiPermissions permissions, const KubeClientOptions& options = {});

  // ResolveConfig(kubeconfig_flag) (the --kubeconfig flag, else the
  // in-cluster config), logs "API server <server> (<source>)", then Connect.
  static StatusOr<std::unique_ptr<ComponentClient>> ConnectFromFlag(
      const std::string& kubeconfig_flag, std::string component,
      ApiPermissions permissions, const KubeClientOptions& options = {});

  ComponentClient(const ComponentClient&) = delete;
  ComponentClient& operator=(const ComponentClient&) = delete;

  // The client the daemon calls: any call outside the permissions fails
  // with PermissionDenied before it reaches the server.
  KubeClient* api() { return &checked_; }
  // The API server's base URL.
  const std::string& server() const { return curl_->server(); }
  // GET /version (not an API resource: no permission is needed), for a
  // daemon that picks its list form by the server's release.
  StatusOr<ServerVersion> GetServerVersion() {
    return curl_->GetServerVersion();
  }

 private:
  ComponentClient(std::unique_ptr<CurlKubeClient> curl, std::string component,
                  ApiPermissions permissions);

  std::unique_ptr<CurlKubeClient> curl_;
  PermissionCheckingKubeClient checked_;  // Borrows *curl_.
};

}  // namespace gcushare::kube

#endif  // GCUSHARE_KUBE_COMPONENT_CLIENT_H_
