// nri-runtime: the stand-in NRI runtime as a program, for the demo and for
// trying a plugin by hand. It listens on --socket, accepts one plugin,
// configures and synchronizes it, then creates --pods pods with DESIGN.md
// assignment annotations (pod i gets card i mod --cards) and one container
// "main" each, applies the plugin's adjustments and prints each resulting
// container spec as one JSON line on stdout.
#include <spdlog/spdlog.h>

#include <cstdio>
#include <string>

#include "contract/annotations.h"
#include "daemon/daemon.h"
#include "tests/peers/nri_runtime/apply.h"
#include "tests/peers/nri_runtime/fixtures.h"
#include "tests/peers/nri_runtime/runtime.h"

int main(int argc, char** argv) {
  namespace rt = gcushare::nri_runtime;
  gcushare::Daemon daemon(
      "gcushare-test-nri-runtime",
      "Stand-in NRI runtime (containerd's side of NRI) for tests and the "
      "demo: accepts one plugin on --socket over NRI's mux and ttrpc, sends "
      "Configure, Synchronize and CreateContainer for pods carrying GCUShare "
      "assignment annotations, and prints each adjusted container spec as a "
      "JSON line.");
  rt::RuntimeOptions options;
  std::string version = "0.4";
  int pods = 4, cards = 8, accept_ms = 30000;
  uint64_t card_memory = 16, request = 4;
  bool stale = false, stay = false;
  CLI::App& app = daemon.app();
  app.add_option("--socket", options.socket_path,
                 "Unix socket to listen on (required).")
      ->required();
  app.add_option("--nri-version", version,
                 "NRI version to emulate: 0.4 (containerd 1.7.7-1.7.13), 0.8 "
                 "(containerd 1.7.26+, 2.0, 2.1) or 0.12 (default 0.4).")
      ->check(CLI::IsMember({"0.4", "0.8", "0.12"}));
  app.add_option("--runtime-version", options.runtime_version,
                 "Runtime version sent in Configure (default v1.7.13).");
  app.add_option("--pods", pods,
                 "Pods to create, one container each "
                 "(default 4).");
  app.add_option("--cards", cards,
                 "Cards on the node; pod i gets card i "
                 "mod cards (default 8).");
  app.add_option("--card-memory", card_memory,
                 "Card memory in units, for gcu-device-memory (default 16).");
  app.add_option("--request", request,
                 "Each pod's request in units (default 4).");
  app.add_flag("--stale-devices", stale,
               "Start each container with another card's /dev/gcuN in its "
               "spec, as a wrong CDI injection would leave it.");
  app.add_option("--accept-timeout", accept_ms,
                 "Milliseconds to wait for the plugin (default 30000).");
  app.add_flag("--stay", stay,
               "Keep the plugin connected after the pods, until SIGTERM.");
  if (auto code = daemon.ParseFlags(argc, argv)) return *code;
  if (auto s = daemon.StartLogging(); !s.ok()) return daemon.Fail(s);
  options.version = version == "0.12"  ? rt::NriVersion::kV0_12
                    : version == "0.8" ? rt::NriVersion::kV0_8
                                       : rt::NriVersion::kV0_4;
  if (cards < 1) cards = 1;

  auto runtime = rt::NriRuntime::Listen(options);
  if (!runtime.ok()) return daemon.Fail(runtime.status());
  std::printf("listening on unix:%s\n", options.socket_path.c_str());
  std::fflush(stdout);

  rt::SyncState existing;
  existing.pods.push_back(rt::MakePodSandbox("kube-system", "coredns-0", 1));
  existing.containers.push_back(
      rt::MakeContainer(existing.pods.back(), "coredns"));
  existing.containers.back().set_state(rt::api::CONTAINER_RUNNING);
  auto plugin =
      (*runtime)->AcceptPlugin(std::chrono::milliseconds(accept_ms), existing);
  if (!plugin.ok()) return daemon.Fail(plugin.status());
  std::printf("plugin %s (index %s) registered, events 0x%x\n",
              (*plugin)->plugin_name().c_str(),
              (*plugin)->plugin_index().c_str(), (*plugin)->events());
  std::fflush(stdout);

  int failed = 0;
  for (int i = 0; i < pods && !daemon.shutdown().Requested(); ++i) {
    uint32_t card = static_cast<uint32_t>(i % cards);
    gcushare::contract::CardAssignment a;
    a.cards = {card};
    a.card_memory_units = card_memory;
    a.request_units = request;
    a.assign_time_ns = 1700000000000000000 + i;
    a.container_cards["main"] = {card};
    std::map<std::string, std::string> annotations =
        gcushare::contract::EncodeAssignment(a);
    rt::api::PodSandbox pod = rt::MakePodSandbox(
        "default", "gcu-pod-" + std::to_string(i), 100 + i, annotations);
    std::vector<rt::api::LinuxDevice> devices;
    if (stale) {
      uint32_t other = (card + 1) % static_cast<uint32_t>(cards);
      devices.push_back(
          rt::CharDevice("/dev/gcu" + std::to_string(other), 238, other));
    }
    rt::api::Container container = rt::MakeContainer(pod, "main", devices);
    (void)(*plugin)->SendEvent(rt::api::RUN_POD_SANDBOX, pod, nullptr);
    auto response = (*plugin)->CreateContainer(pod, container);
    nlohmann::ordered_json line;
    line["pod"] = pod.namespace_() + "/" + pod.name();
    line["container"] = container.name();
    if (!response.ok()) {
      ++failed;
      line["error"] = response.status().ToString();
    } else {
      line["spec"] = rt::ContainerSpecJson(
          rt::ApplyAdjustment(container, response->adjust()));
    }
    std::printf("%s\n", line.dump().c_str());
    std::fflush(stdout);
  }
  std::printf("created %d containers, %d failed\n", pods - failed, failed);
  std::fflush(stdout);
  if (stay) daemon.shutdown().Wait();
  (*plugin)->Close();
  daemon.Finish();
  return failed == 0 ? 0 : 1;
}
