// gcushare-device-plugin: the kubelet device plugin of GCUShare (see
// plugin.h for what it does, flags.h for its command line).
#include <spdlog/spdlog.h>

#include "base/clock.h"
#include "contract/names.h"
#include "daemon/daemon.h"
#include "device-plugin/api_permissions.h"
#include "device-plugin/flags.h"
#include "device-plugin/plugin.h"
#include "device-plugin/syscalls.h"
#include "efml/card_source_factory.h"
#include "kube/component_client.h"
#include "metrics/http_endpoint.h"
#include "metrics/registry.h"

int main(int argc, char** argv) {
  using namespace gcushare;
  Daemon daemon(std::string(contract::kDevicePluginName),
                "Kubelet device plugin for enflame.com/gcu-memory: lists one "
                "device ID per memory unit per card (or, past kubelet's "
                "message limit, advertises the capacity in node status), "
                "answers Allocate with the pod's card as a CDI device, and "
                "publishes the node's card layout.");
  deviceplugin::CommandLine line;
  deviceplugin::AddPluginFlags(daemon.app(), &line);
  metrics::EndpointFlags metrics_flags;
  metrics::AddEndpointFlags(daemon.app(), &metrics_flags);
  if (auto code = daemon.ParseFlags(argc, argv)) return *code;
  if (Status s = daemon.StartLogging(); !s.ok()) return daemon.Fail(s);

  StatusOr<deviceplugin::PluginConfig> config =
      deviceplugin::MakePluginConfig(daemon.app(), line);
  if (!config.ok()) return daemon.Fail(config.status());
  StatusOr<std::unique_ptr<efml::CardSource>> source =
      efml::MakeCardSource(line.cards);
  if (!source.ok()) return daemon.Fail(source.status());
  base::RealClock clock;
  kube::KubeClientOptions client_options;
  client_options.clock = &clock;
  StatusOr<std::unique_ptr<kube::ComponentClient>> kube_client =
      kube::ComponentClient::ConnectFromFlag(
          line.kubeconfig, std::string(contract::kDevicePluginName),
          deviceplugin::DevicePluginApiPermissions(), client_options);
  if (!kube_client.ok()) return daemon.Fail(kube_client.status());

  metrics::Registry registry;  // Outlives the plugin and the endpoint.
  config->registry = &registry;
  deviceplugin::Plugin plugin(*config, source->get(), (*kube_client)->api(),
                              &clock);
  if (Status s = plugin.Start(); !s.ok()) return daemon.Fail(s);
  StatusOr<std::unique_ptr<metrics::HttpEndpoint>> endpoint =
      metrics::StartFromFlags(&registry, metrics_flags);
  if (!endpoint.ok()) {
    plugin.Stop();
    return daemon.Fail(endpoint.status());
  }
  if (Status s = daemon.Confine(deviceplugin::DevicePluginSyscalls(
          (*source)->Name() == "efml", metrics_flags.port != 0));
      !s.ok()) {
    plugin.Stop();
    return daemon.Fail(s);
  }
  spdlog::info("ready on node {}", config->node_name);
  daemon.shutdown().Wait();
  spdlog::info("shutting down");
  if (*endpoint) (*endpoint)->Stop();
  plugin.Stop();
  return daemon.Finish();
}
