#include "tests/kube_client/test_clients.h"

#include <chrono>

namespace gcushare::kube_client_test {

StatusOr<std::unique_ptr<kube::CurlKubeClient>> NewClient(
    const kube::ClientConfig& config, base::Clock* clock) {
  kube::KubeClientOptions options;
  options.retry.backoff = {std::chrono::milliseconds(50),
                           std::chrono::milliseconds(500), 2.0, 0.2};
  options.clock = clock;
  return kube::CurlKubeClient::Create(config, options);
}

StatusOr<std::unique_ptr<kube::CurlKubeClient>> NewClient(
    const std::string& server_url) {
  kube::ClientConfig config;
  config.server = server_url;
  config.source = "test";
  return NewClient(config);
}

kube::InformerOptions FastInformerOptions(base::Clock* clock) {
  kube::InformerOptions options;
  options.backoff = {std::chrono::milliseconds(50),
                     std::chrono::milliseconds(1000), 2.0, 0.2};
  options.clock = clock;
  return options;
}

}  // namespace gcushare::kube_client_test
