#include "kube/component_client.h"

#include <spdlog/spdlog.h>

#include <utility>

namespace gcushare::kube {

StatusOr<std::unique_ptr<ComponentClient>> ComponentClient::Connect(
    const ClientConfig& config, std::string component,
    ApiPermissions permissions, const KubeClientOptions& options) {
  GCUSHARE_ASSIGN_OR_RETURN(std::unique_ptr<CurlKubeClient> curl,
                            CurlKubeClient::Create(config, options));
  return std::unique_ptr<ComponentClient>(new ComponentClient(
      std::move(curl), std::move(component), std::move(permissions)));
}

StatusOr<std::unique_ptr<ComponentClient>> ComponentClient::ConnectFromFlag(
    const std::string& kubeconfig_flag, std::string component,
    ApiPermissions permissions, const KubeClientOptions& options) {
  GCUSHARE_ASSIGN_OR_RETURN(ClientConfig config,
                            ResolveConfig(kubeconfig_flag));
  spdlog::info("API server {} ({})", config.server, config.source);
  return Connect(config, std::move(component), std::move(permissions), options);
}

ComponentClient::ComponentClient(std::unique_ptr<CurlKubeClient> curl,
                                 std::string component,
                                 ApiPermissions permissions)
    : curl_(std::move(curl)),
      checked_(curl_.get(), std::move(component), std::move(permissions)) {}

}  // namespace gcushare::kube
