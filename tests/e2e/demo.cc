// gcushare-demo: the whole GCUShare flow on this machine (README "The two
// commands"; scripts/demo.sh runs it). It starts every piece as its own
// process (see local_cluster.h), plays the vendor manual's scenario, prints
// where each pod went and what its container got, prints /inspect, and
// stops everything. --keep-running leaves the cluster up for curl until
// Ctrl-C.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <string>

#include "contract/names.h"
#include "daemon/flags.h"
#include "daemon/shutdown.h"
#include "kube/json_fields.h"
#include "tests/e2e/local_cluster.h"
#include "tests/e2e/scenario.h"

namespace {

using gcushare::e2e::LocalCluster;
using gcushare::e2e::Piece;
using gcushare::e2e::PodOutcome;

void Heading(const std::string& text) { std::cout << "\n== " << text << "\n"; }

// The shipped file as the operator knows it, not its runfiles path.
std::string Shorten(const std::string& path) {
  const std::string marker = ".runfiles/gcushare/";
  size_t at = path.find(marker);
  return at == std::string::npos ? path : path.substr(at + marker.size());
}

void PrintPieces(LocalCluster& cluster) {
  const std::string& work = cluster.work_dir();
  std::cout << "  stand-in kube-apiserver      " << cluster.apiserver_url()
            << "\n"
            << "  gcushare-scheduler-extender  " << cluster.extender_url()
            << "\n"
            << "  stand-in kube-scheduler      with " << work
            << "/scheduler-config.yaml\n"
            << "  stand-in kubelet             " << work << "/dp/kubelet.sock\n"
            << "  gcushare-device-plugin       node "
            << cluster.options().node_name << ", cards of "
            << Shorten(cluster.options().cards_file) << "\n"
            << "  stand-in NRI runtime         " << work << "/nri/nri.sock\n"
            << "  gcushare-nri-plugin          registered with the runtime\n"
            << "  logs                         " << cluster.log_dir() << "\n";
}

void PrintNode(LocalCluster& cluster) {
  auto node = cluster.client().Get(gcushare::kube::Resource::Nodes(), "",
                                   cluster.options().node_name);
  if (!node.ok()) return;
  const nlohmann::json* status =
      gcushare::kube::FindPath(*node, {"status", "allocatable"});
  std::cout << "  node " << cluster.options().node_name << ": unit "
            << gcushare::kube::StringAt(*node,
                                        {"metadata", "annotations",
                                         gcushare::contract::kNodeMemoryUnit})
            << " GiB, allocatable "
            << (status != nullptr ? status->dump() : "{}") << "\n";
}

void PrintOutcome(const PodOutcome& pod) {
  std::cout << "  " << pod.name << " asks for " << pod.request_units
            << " GiB: ";
  if (pod.node.empty()) {
    std::cout << "Pending\n    reason: " << pod.pending_reason << "\n";
    return;
  }
  std::cout << "node " << pod.node << ", card " << pod.card << "\n";
  for (const std::string& device : pod.devices) {
    std::cout << "    device " << device << "\n";
  }
  for (const auto& [key, value] : pod.env) {
    std::cout << "    env    " << key << "=" << value << "\n";
  }
}

void PrintInspect(LocalCluster& cluster) {
  auto inspect = cluster.ExtenderGet("/inspect/" + cluster.options().node_name);
  if (!inspect.ok()) {
    std::cout << "  " << inspect.status() << "\n";
    return;
  }
  nlohmann::ordered_json parsed =
      nlohmann::ordered_json::parse(inspect->second, nullptr, false);
  std::cout << (parsed.is_discarded() ? inspect->second : parsed.dump(2))
            << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  gcushare::ShutdownSignal shutdown;  // Before any thread exists.
  CLI::App app{
      "The GCUShare demo: the stand-in API server, kube-scheduler, kubelet "
      "and NRI runtime with the real extender, device plugin and NRI plugin, "
      "each its own process; plays the vendor manual's scenario (pods of 4, "
      "8, 12 and 20 GiB on 8 cards of 16 GiB) and prints the outcome."};
  gcushare::SetUpApp(app, "gcushare-demo");
  gcushare::e2e::ClusterOptions options;
  bool keep_running = false;
  app.add_flag("--keep-running", keep_running,
               "Leave the cluster running after the scenario, until Ctrl-C "
               "or SIGTERM, to create pods and query /inspect and /metrics.");
  app.add_option("--work-dir", options.work_dir,
                 "Directory for sockets, logs and state (kept afterwards). "
                 "Default: a new /tmp/gcushare-e2e.XXXXXX, removed at the end "
                 "unless --keep-running.");
  app.add_option("--fake-cards", options.cards_file,
                 "The node's cards (fake backend file). Default: the shipped "
                 "configs/fake-cards.yaml (8 cards of 16 GiB).");
  app.add_option("--policy", options.policy,
                 "The extender's card policy: binpack or spread.")
      ->check(CLI::IsMember({"binpack", "spread"}))
      ->capture_default_str();
  app.add_option("--log-level", options.log_level,
                 "Log level of every component (their logs: <work-dir>/logs).")
      ->capture_default_str();
  if (auto code = gcushare::ParseFlags(app, argc, argv)) return *code;
  options.keep_work_dir = keep_running || !options.work_dir.empty();

  Heading("starting every piece, each its own process");
  auto started = LocalCluster::Start(options);
  if (!started.ok()) {
    std::cerr << "gcushare-demo: " << started.status() << "\n";
    return 1;
  }
  LocalCluster& cluster = **started;
  PrintPieces(cluster);
  PrintNode(cluster);

  Heading(
      "the vendor manual's scenario: pods of 4, 8, 12 and 20 GiB, one after "
      "the other");
  auto outcomes = gcushare::e2e::PlayVendorScenario(cluster);
  if (!outcomes.ok()) {
    std::cerr << "gcushare-demo: " << outcomes.status()
              << "\nlogs: " << cluster.log_dir() << "\n";
    return 1;
  }
  for (const PodOutcome& pod : *outcomes) PrintOutcome(pod);

  Heading("GET " + cluster.extender_url() + "/inspect/" +
          cluster.options().node_name);
  PrintInspect(cluster);

  if (keep_running) {
    Heading("still running; try (Ctrl-C stops everything):");
    std::cout << "  curl -s " << cluster.extender_url() << "/inspect\n"
              << "  curl -s " << cluster.extender_url() << "/metrics\n"
              << "  curl -s " << cluster.apiserver_url()
              << "/api/v1/namespaces/default/pods\n"
              << "  curl -s -X POST -H 'Content-Type: application/json' "
              << cluster.apiserver_url()
              << "/api/v1/namespaces/default/pods -d '{\"metadata\":{\"name\":"
                 "\"my-pod\"},\"spec\":{\"containers\":[{\"name\":\"main\","
                 "\"image\":\"ubuntu\",\"resources\":{\"limits\":{\""
              << gcushare::contract::kResourceMemory << "\":\"2\"}}}]}}'\n"
              << "  tail -f " << cluster.work_dir()
              << "/out/nri-runtime.out   # containers as created\n"
              << "  logs: " << cluster.log_dir() << "\n";
    std::cout.flush();
    shutdown.Wait();
  }

  Heading("stopping");
  gcushare::Status stopped = cluster.Stop();
  if (!stopped.ok()) {
    std::cerr << "gcushare-demo: " << stopped << "\n";
    return 1;
  }
  std::cout << "  every piece stopped cleanly; logs were in "
            << cluster.log_dir()
            << (options.keep_work_dir ? " (kept)" : " (removed)") << "\n";
  return 0;
}
