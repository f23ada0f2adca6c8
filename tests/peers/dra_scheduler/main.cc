// The stand-in DRA scheduler (//tests/peers/dra_scheduler:dra_scheduler;
// README.md beside it): allocates ResourceClaims by the structured rules
// with consumable capacity and binds pending pods, against the stand-in (or
// a real) API server. It also plays the resourceclaim controller: claims
// from templates, release of claims when pods go away.
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <chrono>
#include <string>

#include "base/clock.h"
#include "daemon/daemon.h"
#include "kube/config.h"
#include "kube/curl_kube_client.h"
#include "tests/peers/dra_scheduler/dra_scheduler.h"
#include "tests/peers/dra_scheduler/share_id.h"
#include "tests/peers/peer_syscalls.h"

namespace {

namespace kube = gcushare::kube;
namespace dra = gcushare::dra_scheduler;

gcushare::StatusOr<kube::ClientConfig> ClientConfigFrom(
    const std::string& kubeconfig, const std::string& server) {
  if (!kubeconfig.empty() && !server.empty()) {
    return gcushare::InvalidArgumentError(
        "give --kubeconfig or --server, not both");
  }
  if (!server.empty()) {
    kube::ClientConfig config;
    config.server = server;
    while (!config.server.empty() && config.server.back() == '/') {
      config.server.pop_back();
    }
    config.source = "--server " + server;
    return config;
  }
  return kube::ResolveConfig(kubeconfig);
}

}  // namespace

int main(int argc, char** argv) {
  gcushare::Daemon daemon(
      "gcushare-test-dra-scheduler",
      "Stand-in kube-scheduler for DRA pods: allocates ResourceClaims "
      "(resource.k8s.io/v1) by the structured-parameters rules with "
      "consumable capacity (KEP-5075) and extended resources (KEP-5004), "
      "creates claims from templates as kube-controller-manager does, "
      "binds pods, and releases claims of deleted pods.");
  std::string kubeconfig;
  std::string server;
  std::string scheduler_name = "default-scheduler";
  bool once = false;
  int interval_ms = 500;
  CLI::App& app = daemon.app();
  app.add_option("--kubeconfig", kubeconfig,
                 "kubeconfig file of the API server (default: in-cluster "
                 "configuration).");
  app.add_option("--server", server,
                 "API server URL without authentication, e.g. "
                 "http://127.0.0.1:8080 (the stand-in API server); instead "
                 "of --kubeconfig.");
  app.add_option("--scheduler-name", scheduler_name,
                 "Schedule only pods with this spec.schedulerName.");
  app.add_flag("--once", once,
               "One pass (release claims, try every pending pod once), then "
               "exit: 0 when all were bound, 1 otherwise.");
  app.add_option("--interval-ms", interval_ms,
                 "Continuous mode: milliseconds between passes.")
      ->check(CLI::Range(10, 600000));
  if (auto code = daemon.ParseFlags(argc, argv)) return *code;
  if (auto s = daemon.StartLogging(); !s.ok()) return daemon.Fail(s);

  auto client_config = ClientConfigFrom(kubeconfig, server);
  if (!client_config.ok()) return daemon.Fail(client_config.status());
  auto client = kube::CurlKubeClient::Create(*client_config);
  if (!client.ok()) return daemon.Fail(client.status());
  gcushare::base::RealClock clock;
  dra::RandomShareIds share_ids;
  dra::DraSchedulerOptions options;
  options.scheduler_name = scheduler_name;
  char host[256] = {0};
  if (gethostname(host, sizeof(host) - 1) == 0) options.host_name = host;
  dra::DraScheduler scheduler(client->get(), &share_ids, &clock, options);

  if (auto s = daemon.Confine(gcushare::peers::PeerSyscalls()); !s.ok()) {
    return daemon.Fail(s);
  }
  spdlog::info("API server {}; scheduling DRA pods of {}",
               client_config->source, scheduler_name);
  if (once) {
    auto outcomes = scheduler.SchedulePending();
    if (!outcomes.ok()) return daemon.Fail(outcomes.status());
    int bound = 0;
    for (const dra::PodOutcome& outcome : *outcomes) bound += outcome.bound;
    spdlog::info("bound {} of {} pending pod(s)", bound, outcomes->size());
    daemon.Finish();
    return bound == static_cast<int>(outcomes->size()) ? 0 : 1;
  }
  spdlog::info("ready");
  while (!daemon.shutdown().WaitFor(std::chrono::milliseconds(interval_ms))) {
    auto outcomes = scheduler.SchedulePending();
    if (!outcomes.ok()) {
      spdlog::warn("scheduling pass failed: {}", outcomes.status().message());
    }
  }
  spdlog::info("shutting down");
  return daemon.Finish();
}
