// gcushare-nri-plugin: an NRI plugin that gives every container exactly the
// GCU cards its pod was assigned (docs/architecture.md flow step 7). It dials
// the runtime's NRI socket, registers as "gcushare", and adjusts containers at
// CreateContainer; it reconnects with backoff whenever the runtime goes
// away.
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <thread>

#include "assignment/assigned_marker.h"
#include "base/cancellation.h"
#include "base/clock.h"
#include "base/guarded_thread.h"
#include "contract/memory_unit.h"
#include "contract/names.h"
#include "daemon/daemon.h"
#include "kube/component_client.h"
#include "kube/config.h"
#include "kube/event_queue.h"
#include "kube/informer.h"
#include "metrics/http_endpoint.h"
#include "metrics/registry.h"
#include "nri-plugin/api_permissions.h"
#include "nri-plugin/container_adjuster.h"
#include "nri-plugin/device_nodes.h"
#include "nri-plugin/node_info.h"
#include "nri-plugin/plugin.h"
#include "nri-plugin/plugin_metrics.h"
#include "nri-plugin/pod_cache.h"
#include "nri-plugin/protocol.h"
#include "nri-plugin/syscalls.h"

namespace {

namespace contract = gcushare::contract;
namespace base = gcushare::base;
namespace kube = gcushare::kube;
namespace plugin_ns = gcushare::nri;
using gcushare::Status;
using gcushare::StatusOr;

std::string EnvOr(const char* name, const char* fallback) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : fallback;
}

// The command line.
struct Flags {
  plugin_ns::PluginOptions options;
  int plugin_index = 10;
  std::string node_name = EnvOr("NODE_NAME", "");
  std::string kubeconfig;
  std::string memory_unit = "1";
  std::string dev_root = "/";
  int pod_wait_ms = 500;
  int registration_timeout_ms = 5000;
  gcushare::metrics::EndpointFlags metrics;
};

void AddFlags(CLI::App& app, Flags* flags) {
  app.add_option("--nri-socket", flags->options.session.socket_path,
                 "The runtime's NRI socket (default /var/run/nri/nri.sock).");
  app.add_option("--plugin-index", flags->plugin_index,
                 "Plugin index 0-99, sent as two digits; the runtime calls "
                 "plugins in ascending index order (default 10).")
      ->check(CLI::Range(0, 99));
  app.add_option("--plugin-name", flags->options.session.plugin_name,
                 "Name registered with the runtime (default gcushare).");
  app.add_option("--node-name", flags->node_name,
                 "This node's name: its pods and GCU layout are watched; "
                 "required with API server access; default $NODE_NAME.");
  app.add_option("--kubeconfig", flags->kubeconfig,
                 "kubeconfig file; absent: in-cluster config (refuses to "
                 "start in a cluster without a readable service account); "
                 "outside a cluster without either, the plugin runs on pod "
                 "annotations and flags alone.");
  app.add_option("--memory-unit", flags->memory_unit,
                 std::string("Memory unit when neither the pod nor the node "
                             "annotation enflame.com/gcu-memory-unit gives "
                             "one: ") +
                     std::string(contract::ValidMemoryUnits()) +
                     " (default 1).");
  app.add_option("--dev-root", flags->dev_root,
                 "Directory under which the host's /dev/gcu<N> nodes are "
                 "read (default /); demos point it at stand-in nodes.");
  app.add_option("--pod-wait", flags->pod_wait_ms,
                 "Milliseconds CreateContainer waits for a pod its watch has "
                 "not brought yet before failing that container (kubelet "
                 "retries); capped at half the runtime's request timeout "
                 "(2 s when it sends none) (default 500).")
      ->check(CLI::Range(0, 1500));
  app.add_option("--registration-timeout", flags->registration_timeout_ms,
                 "Milliseconds to wait for the runtime to accept the "
                 "registration (default 5000).");
  gcushare::metrics::AddEndpointFlags(app, &flags->metrics);
}

// Checks the plugin's name and fills in the session's index and
// registration timeout from the flags.
Status FinishSessionOptions(Flags* flags) {
  if (!plugin_ns::ValidPluginName(flags->options.session.plugin_name)) {
    return gcushare::InvalidArgumentError(
        "--plugin-name: must match [A-Za-z0-9_.+-]+");
  }
  char index[3];
  std::snprintf(index, sizeof(index), "%02d", flags->plugin_index);
  flags->options.session.plugin_index = index;
  flags->options.session.registration_timeout =
      std::chrono::milliseconds(flags->registration_timeout_ms);
  return gcushare::OkStatus();
}

// The API server's client, or null when there is no access (outside a
// cluster without a kubeconfig): the plugin then runs on annotations.
StatusOr<std::unique_ptr<kube::ComponentClient>> ConnectToApiServer(
    const Flags& flags, const contract::MemoryUnit& unit, base::Clock* clock) {
  StatusOr<kube::ClientConfig> config = kube::ResolveConfig(flags.kubeconfig);
  if (config.ok()) {
    // Without the node's name there is no watch of its pods, and a card
    // would go to anyone whose annotations name one.
    if (flags.node_name.empty()) {
      return gcushare::InvalidArgumentError(
          "--node-name (or $NODE_NAME) is required with API server access (" +
          config->source + ")");
    }
    kube::KubeClientOptions kube_options;
    kube_options.clock = clock;
    auto created = kube::ComponentClient::Connect(
        *config, std::string(contract::kNriPluginName),
        gcushare::nri::NriPluginApiPermissions(), kube_options);
    if (!created.ok()) return created.status();
    spdlog::info("API server {} ({})", (*created)->server(), config->source);
    return created;
  }
  if (!flags.kubeconfig.empty() ||
      config.status().code() != gcushare::StatusCode::kFailedPrecondition) {
    // A kubeconfig that does not load, or in a cluster
    // ($KUBERNETES_SERVICE_HOST set) without a readable service account:
    // refuse rather than silently trust annotations.
    return config.status();
  }
  spdlog::warn(
      "no API server access ({}): using pod annotations and "
      "--memory-unit={} only",
      config.status().message(), unit.ToString());
  return std::unique_ptr<kube::ComponentClient>();
}

// This node's pods and its GCU layout from watches, assigned-marks and
// events in the background: CreateContainer never waits on the API
// server (the adjuster holds no client). All null without a client.
struct Background {
  std::unique_ptr<kube::Informer> pod_informer;
  std::unique_ptr<kube::Informer> node_informer;
  std::unique_ptr<gcushare::assignment::AssignedMarker> marker;
  std::unique_ptr<kube::EventQueue> events;

  void Start() {
    if (pod_informer) pod_informer->Start();
    if (node_informer) node_informer->Start();
    if (marker) marker->Start();
    if (events) events->Start();
  }
  void Stop() {
    if (marker) marker->Stop();
    if (events) events->Stop();
    if (pod_informer) pod_informer->Stop();
    if (node_informer) node_informer->Stop();
  }
};

// The background work over `client` (borrowed; may be null) into `pods`
// and `node_info` (borrowed).
Background MakeBackground(kube::KubeClient* client,
                          const std::string& node_name,
                          plugin_ns::PodCache* pods,
                          plugin_ns::NodeInfoCache* node_info,
                          base::Clock* clock) {
  Background background;
  if (client == nullptr) return background;
  kube::InformerOptions informer_options;
  informer_options.field_selector = "spec.nodeName=" + node_name;
  background.pod_informer = std::make_unique<kube::Informer>(
      client, kube::Resource::Pods(), "", pods, informer_options);
  kube::InformerOptions node_options;
  node_options.field_selector = "metadata.name=" + node_name;
  background.node_informer = std::make_unique<kube::Informer>(
      client, kube::Resource::Nodes(), "", node_info, node_options);
  background.events = std::make_unique<kube::EventQueue>(
      client, std::string(contract::kNriPluginName));
  background.marker = std::make_unique<gcushare::assignment::AssignedMarker>(
      client, clock,
      base::BackoffOptions{std::chrono::milliseconds(200),
                           std::chrono::seconds(30), 2.0, 0.2});
  return background;
}

}  // namespace

int main(int argc, char** argv) {
  using gcushare::Daemon;
  Daemon daemon(std::string(contract::kNriPluginName),
                "NRI plugin: at container creation, gives each container "
                "exactly the GCU cards of its pod's assignment annotations "
                "(/dev/gcu<index> and the GCUSHARE_* environment), and "
                "removes any other /dev/gcu<N> from its spec.");
  Flags flags;
  AddFlags(daemon.app(), &flags);
  if (auto code = daemon.ParseFlags(argc, argv)) return *code;
  if (auto s = daemon.StartLogging(); !s.ok()) return daemon.Fail(s);

  StatusOr<contract::MemoryUnit> unit =
      contract::MemoryUnit::Parse(flags.memory_unit);
  if (!unit.ok())
    return daemon.Fail(unit.status().WithContext("--memory-unit"));
  if (auto s = FinishSessionOptions(&flags); !s.ok()) return daemon.Fail(s);

  base::RealClock clock;
  StatusOr<std::unique_ptr<kube::ComponentClient>> kube_client =
      ConnectToApiServer(flags, *unit, &clock);
  if (!kube_client.ok()) return daemon.Fail(kube_client.status());

  plugin_ns::PodCache pods{std::chrono::milliseconds(flags.pod_wait_ms)};
  plugin_ns::NodeInfoCache node_info(flags.node_name);
  kube::KubeClient* client =
      *kube_client != nullptr ? (*kube_client)->api() : nullptr;
  Background background =
      MakeBackground(client, flags.node_name, &pods, &node_info, &clock);
  plugin_ns::HostDeviceNodes nodes(flags.dev_root == "/" ? "" : flags.dev_root);
  plugin_ns::ContainerAdjuster adjuster(
      &nodes, client != nullptr ? &node_info : nullptr,
      plugin_ns::AdjusterOptions{*unit}, client != nullptr ? &pods : nullptr,
      background.marker.get(), background.events.get());
  gcushare::metrics::Registry registry;  // Outlives plugin and endpoint.
  plugin_ns::NriMetrics nri_metrics(&registry);
  flags.options.session.metrics = &nri_metrics;
  plugin_ns::NriPlugin plugin(flags.options, &adjuster, &clock);
  auto endpoint = gcushare::metrics::StartFromFlags(&registry, flags.metrics);
  if (!endpoint.ok()) return daemon.Fail(endpoint.status());

  if (auto s = daemon.Confine(
          gcushare::nri::NriPluginSyscalls(flags.metrics.port != 0));
      !s.ok()) {
    return daemon.Fail(s);
  }
  background.Start();
  base::Cancellation cancel;
  daemon.shutdown().OnShutdown([&cancel] { cancel.Cancel(); });
  std::thread runner = gcushare::base::StartGuardedThread(
      "nri plugin", [&] { plugin.Run(&cancel); });
  daemon.shutdown().Wait();
  spdlog::info("shutting down");
  runner.join();
  if (*endpoint) (*endpoint)->Stop();
  background.Stop();
  return daemon.Finish();
}
