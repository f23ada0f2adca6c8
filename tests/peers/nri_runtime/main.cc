// nri-runtime: the stand-in NRI runtime as a program, for the demo, the
// end-to-end tests and trying a plugin by hand. Two modes:
//
// Fabricated pods (default): it listens on --socket, accepts one plugin,
// configures and synchronizes it, then creates --pods pods with
// docs/contracts.md assignment annotations (pod i gets card i mod --cards) and
// one container "main" each, applies the plugin's adjustments and prints each
// resulting container spec as one JSON line on stdout.
//
// Cluster mode (--apiserver=URL or --kubeconfig=PATH, with --node-name):
// pods come from the API server. Every --poll-interval it lists the pods
// bound to the node and, for each Pending pod marked
// enflame.com/gcu-device-assigned=true (or asking for no enflame.com
// resource), sends RunPodSandbox and CreateContainer per app container to
// the plugin, prints {"pod","container","spec"} (or "error") JSON lines,
// then patches the pod's status to Running and prints "running ns/name".
// Plugins are accepted again whenever one disconnects; pods already Running
// at start are synchronized, never re-created. Runs until SIGTERM. See
// cluster_runtime.h for every output line.
#include <spdlog/spdlog.h>

#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "base/clock.h"
#include "contract/annotations.h"
#include "daemon/daemon.h"
#include "kube/config.h"
#include "kube/curl_kube_client.h"
#include "tests/peers/nri_runtime/apply.h"
#include "tests/peers/nri_runtime/cluster_runtime.h"
#include "tests/peers/nri_runtime/fixtures.h"
#include "tests/peers/nri_runtime/runtime.h"
#include "tests/peers/peer_syscalls.h"

namespace {

namespace rt = gcushare::nri_runtime;

void PrintLine(const std::string& line) {
  std::printf("%s\n", line.c_str());
  std::fflush(stdout);
}

// Cluster mode: pods from the API server until SIGTERM.
int RunCluster(gcushare::Daemon& daemon, const rt::RuntimeOptions& options,
               const std::string& apiserver, const std::string& kubeconfig,
               rt::ClusterOptions cluster) {
  if (cluster.node_name.empty()) {
    return daemon.Fail(gcushare::InvalidArgumentError(
        "--node-name is required with --apiserver or --kubeconfig"));
  }
  gcushare::kube::ClientConfig config;
  if (!apiserver.empty()) {
    config.server = apiserver;
    config.source = "--apiserver";
  } else {
    auto loaded = gcushare::kube::LoadKubeconfig(kubeconfig);
    if (!loaded.ok()) return daemon.Fail(loaded.status());
    config = std::move(*loaded);
  }
  gcushare::base::RealClock clock;
  gcushare::kube::KubeClientOptions kube_options;
  kube_options.clock = &clock;
  // Polling is the retry: one attempt per poll, short timeouts.
  kube_options.retry.max_attempts = 1;
  kube_options.http.connect_timeout = std::chrono::seconds(2);
  kube_options.http.request_timeout = std::chrono::seconds(10);
  auto client = gcushare::kube::CurlKubeClient::Create(config, kube_options);
  if (!client.ok()) return daemon.Fail(client.status());
  auto runtime = rt::NriRuntime::Listen(options);
  if (!runtime.ok()) return daemon.Fail(runtime.status());
  if (auto s = daemon.Confine(gcushare::peers::PeerSyscalls()); !s.ok()) {
    return daemon.Fail(s);
  }
  spdlog::info("API server {} ({}), node {}", (*client)->server(),
               config.source, cluster.node_name);
  PrintLine("listening on unix:" + options.socket_path);
  rt::ClusterRuntime runner(runtime->get(), client->get(), &clock,
                            std::move(cluster), PrintLine);
  daemon.shutdown().OnShutdown([&runner] { runner.Stop(); });
  runner.Run();
  return daemon.Finish();
}

// Flags of fabricated-pods mode (no --apiserver/--kubeconfig).
struct FabricatedFlags {
  int pods = 4, cards = 8, accept_ms = 30000;
  uint64_t card_memory = 16, request = 4;
  bool stale = false, stay = false;
};

// Flags of cluster mode.
struct ClusterFlags {
  std::string apiserver, kubeconfig;
  rt::ClusterOptions cluster;
  double poll_seconds = 0.2;
};

// Registers the flags both modes share: the socket and the NRI versions.
void AddRuntimeFlags(CLI::App& app, rt::RuntimeOptions& options,
                     std::string& version) {
  app.add_option("--socket", options.socket_path,
                 "Unix socket to listen on (required).")
      ->required();
  app.add_option("--nri-version", version,
                 "NRI version to emulate: 0.4 (containerd 1.7.7-1.7.13), 0.8 "
                 "(containerd 1.7.26+, 2.0, 2.1) or 0.12 (default 0.4).")
      ->check(CLI::IsMember({"0.4", "0.8", "0.12"}));
  app.add_option("--runtime-version", options.runtime_version,
                 "Runtime version sent in Configure (default v1.7.13).");
}

// Registers the flags of fabricated-pods mode.
void AddFabricatedFlags(CLI::App& app, FabricatedFlags& flags) {
  app.add_option("--pods", flags.pods,
                 "Pods to create, one container each "
                 "(default 4).");
  app.add_option("--cards", flags.cards,
                 "Cards on the node; pod i gets card i "
                 "mod cards (default 8).");
  app.add_option("--card-memory", flags.card_memory,
                 "Card memory in units, for gcu-device-memory (default 16).");
  app.add_option("--request", flags.request,
                 "Each pod's request in units (default 4).");
  app.add_flag("--stale-devices", flags.stale,
               "Start each container with another card's /dev/gcuN in its "
               "spec, as a wrong CDI injection would leave it.");
  app.add_option("--accept-timeout", flags.accept_ms,
                 "Milliseconds to wait for the plugin (default 30000).");
  app.add_flag("--stay", flags.stay,
               "Keep the plugin connected after the pods, until SIGTERM.");
}

// Registers the flags of cluster mode.
void AddClusterFlags(CLI::App& app, ClusterFlags& flags) {
  auto* apiserver_flag = app.add_option(
      "--apiserver", flags.apiserver,
      "Cluster mode: API server URL (http://127.0.0.1:PORT, plain HTTP, no "
      "auth); pods bound to --node-name are created from it.");
  app.add_option("--kubeconfig", flags.kubeconfig,
                 "Cluster mode: kubeconfig file for the API server (instead "
                 "of --apiserver).")
      ->excludes(apiserver_flag);
  app.add_option("--node-name", flags.cluster.node_name,
                 "Cluster mode: this node's name (required there).");
  app.add_option("--poll-interval", flags.poll_seconds,
                 "Cluster mode: seconds between pod listings (default 0.2).")
      ->check(CLI::Range(0.01, 3600.0));
}

// Creates fabricated pod `i` (card i mod cards) and its container "main"
// through `plugin` and prints the adjusted spec (or the error) as one JSON
// line. Returns false when the plugin's CreateContainer failed.
bool CreateFabricatedPod(rt::PluginConnection& plugin,
                         const FabricatedFlags& flags, int i) {
  uint32_t card = static_cast<uint32_t>(i % flags.cards);
  gcushare::contract::CardAssignment a;
  a.cards = {card};
  a.card_memory_units = flags.card_memory;
  a.request_units = flags.request;
  a.assign_time_ns = 1700000000000000000 + i;
  a.container_cards["main"] = {card};
  std::map<std::string, std::string> annotations =
      gcushare::contract::EncodeAssignment(a);
  rt::api::PodSandbox pod = rt::MakePodSandbox(
      "default", "gcu-pod-" + std::to_string(i), 100 + i, annotations);
  std::vector<rt::api::LinuxDevice> devices;
  if (flags.stale) {
    uint32_t other = (card + 1) % static_cast<uint32_t>(flags.cards);
    devices.push_back(
        rt::CharDevice("/dev/gcu" + std::to_string(other), 238, other));
  }
  rt::api::Container container = rt::MakeContainer(pod, "main", devices);
  (void)plugin.SendEvent(rt::api::RUN_POD_SANDBOX, pod, nullptr);
  auto response = plugin.CreateContainer(pod, container);
  nlohmann::ordered_json line;
  line["pod"] = pod.namespace_() + "/" + pod.name();
  line["container"] = container.name();
  if (!response.ok()) {
    line["error"] = response.status().ToString();
  } else {
    line["spec"] = rt::ContainerSpecJson(
        rt::ApplyAdjustment(container, response->adjust()));
  }
  std::printf("%s\n", line.dump().c_str());
  std::fflush(stdout);
  return response.ok();
}

// Fabricated-pods mode: one plugin, --pods pods, then exit (or SIGTERM
// with --stay).
int RunFabricated(gcushare::Daemon& daemon, const rt::RuntimeOptions& options,
                  const FabricatedFlags& flags) {
  auto runtime = rt::NriRuntime::Listen(options);
  if (!runtime.ok()) return daemon.Fail(runtime.status());
  std::printf("listening on unix:%s\n", options.socket_path.c_str());
  std::fflush(stdout);

  rt::SyncState existing;
  existing.pods.push_back(rt::MakePodSandbox("kube-system", "coredns-0", 1));
  existing.containers.push_back(
      rt::MakeContainer(existing.pods.back(), "coredns"));
  existing.containers.back().set_state(rt::api::CONTAINER_RUNNING);
  auto plugin = (*runtime)->AcceptPlugin(
      std::chrono::milliseconds(flags.accept_ms), existing);
  if (!plugin.ok()) return daemon.Fail(plugin.status());
  std::printf("plugin %s (index %s) registered, events 0x%x\n",
              (*plugin)->plugin_name().c_str(),
              (*plugin)->plugin_index().c_str(), (*plugin)->events());
  std::fflush(stdout);

  int failed = 0;
  for (int i = 0; i < flags.pods && !daemon.shutdown().Requested(); ++i) {
    if (!CreateFabricatedPod(**plugin, flags, i)) ++failed;
  }
  std::printf("created %d containers, %d failed\n", flags.pods - failed,
              failed);
  std::fflush(stdout);
  if (flags.stay) daemon.shutdown().Wait();
  (*plugin)->Close();
  daemon.Finish();
  return failed == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  gcushare::Daemon daemon(
      "gcushare-test-nri-runtime",
      "Stand-in NRI runtime (containerd's side of NRI) for tests and the "
      "demo: accepts a plugin on --socket over NRI's mux and ttrpc, sends "
      "Configure, Synchronize and CreateContainer for pods carrying GCUShare "
      "assignment annotations, and prints each adjusted container spec as a "
      "JSON line. Without --apiserver/--kubeconfig the pods are fabricated "
      "(--pods); with either, they are the API server's pods bound to "
      "--node-name, which are marked Running once created (until SIGTERM).");
  rt::RuntimeOptions options;
  std::string version = "0.4";
  FabricatedFlags fabricated;
  ClusterFlags cluster;
  CLI::App& app = daemon.app();
  AddRuntimeFlags(app, options, version);
  AddFabricatedFlags(app, fabricated);
  AddClusterFlags(app, cluster);
  if (auto code = daemon.ParseFlags(argc, argv)) return *code;
  if (auto s = daemon.StartLogging(); !s.ok()) return daemon.Fail(s);
  options.version = version == "0.12"  ? rt::NriVersion::kV0_12
                    : version == "0.8" ? rt::NriVersion::kV0_8
                                       : rt::NriVersion::kV0_4;
  if (fabricated.cards < 1) fabricated.cards = 1;
  if (!cluster.apiserver.empty() || !cluster.kubeconfig.empty()) {
    cluster.cluster.poll_interval = std::chrono::milliseconds(
        static_cast<int64_t>(cluster.poll_seconds * 1000));
    return RunCluster(daemon, options, cluster.apiserver, cluster.kubeconfig,
                      std::move(cluster.cluster));
  }
  return RunFabricated(daemon, options, fabricated);
}
