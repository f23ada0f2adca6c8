// The stand-in kube-scheduler (//tests/peers/scheduler:scheduler; README.md
// beside it): schedules pending pods against the stand-in (or a real) API
// server, calling the scheduler extenders of a KubeSchedulerConfiguration
// the way kube-scheduler does.
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "base/clock.h"
#include "daemon/daemon.h"
#include "kube/config.h"
#include "kube/curl_http_client.h"
#include "kube/curl_kube_client.h"
#include "tests/peers/peer_syscalls.h"
#include "tests/peers/scheduler/continuous_scheduler.h"
#include "tests/peers/scheduler/http_extender.h"
#include "tests/peers/scheduler/once_scheduler.h"
#include "tests/peers/scheduler/pod_scheduler.h"
#include "tests/peers/scheduler/scheduler_config.h"

namespace {

using gcushare::Status;
using gcushare::StatusOr;
namespace base = gcushare::base;
namespace kube = gcushare::kube;
namespace sched = gcushare::scheduler;

std::string HostName() {
  char buffer[256] = {0};
  if (gethostname(buffer, sizeof(buffer) - 1) != 0) return "localhost";
  return buffer;
}

StatusOr<kube::ClientConfig> ClientConfigFrom(const std::string& kubeconfig,
                                              const std::string& server) {
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
      "gcushare-test-scheduler",
      "Stand-in kube-scheduler for tests: schedules pending pods (in-tree "
      "node filters in small, then the scheduler extenders of a "
      "KubeSchedulerConfiguration over HTTP, exactly as kube-scheduler calls "
      "them), binds them, and records FailedScheduling events and the "
      "PodScheduled condition when no node fits.");
  std::string kubeconfig;
  std::string server;
  std::string config_path;
  std::string scheduler_name = std::string(sched::kDefaultSchedulerName);
  bool once = false;
  std::string style = "current";
  std::string max_unschedulable = "5m";
  CLI::App& app = daemon.app();
  app.add_option("--kubeconfig", kubeconfig,
                 "kubeconfig file of the API server (default: in-cluster "
                 "configuration).");
  app.add_option("--server", server,
                 "API server URL without authentication, e.g. "
                 "http://127.0.0.1:8080 (the stand-in API server); instead "
                 "of --kubeconfig.");
  app.add_option("--config", config_path,
                 "KubeSchedulerConfiguration file "
                 "(kubescheduler.config.k8s.io/v1): its profiles' scheduler "
                 "names and its extenders are used (default: no extenders).");
  CLI::Option* name_option = app.add_option(
      "--scheduler-name", scheduler_name,
      "Schedule only pods with this spec.schedulerName (default: the "
      "config's profile names, else default-scheduler).");
  app.add_flag("--once", once,
               "Schedule every pod pending at start once, then exit: 0 when "
               "all were bound, 1 otherwise. Default: run until SIGTERM, "
               "scheduling pods as they appear.");
  app.add_option("--message-style", style,
                 "Texts of failure messages: 'current' (Kubernetes 1.34+) "
                 "or '1.26' (as in the conformance captures).")
      ->check(CLI::IsMember({"current", "1.26"}));
  app.add_option("--pod-max-in-unschedulable-pods-duration", max_unschedulable,
                 "Continuous mode: retry an unschedulable pod after this Go "
                 "duration even if nothing changed (default 5m).");
  if (auto code = daemon.ParseFlags(argc, argv)) return *code;
  if (auto s = daemon.StartLogging(); !s.ok()) return daemon.Fail(s);

  sched::SchedulerConfig config;
  if (!config_path.empty()) {
    auto loaded = sched::LoadSchedulerConfig(config_path);
    if (!loaded.ok()) return daemon.Fail(loaded.status());
    config = *loaded;
  }
  std::set<std::string> names;
  if (name_option->count() > 0 || config.profile_names.empty()) {
    names.insert(scheduler_name);
  } else {
    names.insert(config.profile_names.begin(), config.profile_names.end());
  }
  auto retry = sched::ParseGoDuration(max_unschedulable);
  if (!retry.ok()) {
    return daemon.Fail(
        retry.status().WithContext("--pod-max-in-unschedulable-pods-duration"));
  }

  auto client_config = ClientConfigFrom(kubeconfig, server);
  if (!client_config.ok()) return daemon.Fail(client_config.status());
  auto client = kube::CurlKubeClient::Create(*client_config);
  if (!client.ok()) return daemon.Fail(client.status());

  kube::CurlHttpClientOptions http_options;
  http_options.user_agent = std::string(sched::kGoUserAgent);
  kube::CurlHttpClient http(kube::TlsConfig{}, http_options);
  std::vector<std::unique_ptr<sched::HttpExtender>> extenders;
  std::vector<sched::Extender*> extender_ptrs;
  for (const sched::ExtenderConfig& extender : config.extenders) {
    extenders.push_back(std::make_unique<sched::HttpExtender>(extender, &http));
    extender_ptrs.push_back(extenders.back().get());
    spdlog::info(
        "extender {}: filter={} prioritize={} bind={} weight={} "
        "nodeCacheCapable={} ignorable={}",
        extender.url_prefix, extender.filter_verb, extender.prioritize_verb,
        extender.bind_verb, extender.weight, extender.node_cache_capable,
        extender.ignorable);
  }

  base::RealClock clock;
  sched::SchedulerOptions options;
  options.style = style == "1.26" ? sched::MessageStyle::kV126
                                  : sched::MessageStyle::kCurrent;
  options.host_name = HostName();
  options.clock = &clock;
  sched::PodScheduler scheduler(client->get(), extender_ptrs, options);

  if (auto s = daemon.Confine(gcushare::peers::PeerSyscalls()); !s.ok()) {
    return daemon.Fail(s);
  }
  std::string served;
  for (const std::string& name : names)
    served += (served.empty() ? "" : ",") + name;
  spdlog::info("API server {}; scheduling pods of {}", client_config->source,
               served);

  if (once) {
    auto summary = sched::ScheduleAllOnce(client->get(), &scheduler, names);
    if (!summary.ok()) return daemon.Fail(summary.status());
    spdlog::info("bound {} of {} pending pod(s)", summary->bound,
                 summary->pending);
    daemon.Finish();
    return summary->all_bound() ? 0 : 1;
  }

  sched::ContinuousOptions continuous;
  continuous.scheduler_names = names;
  continuous.max_unschedulable = *retry;
  continuous.clock = &clock;
  sched::ContinuousScheduler loop(client->get(), &scheduler, continuous);
  if (auto s = loop.Start(); !s.ok()) return daemon.Fail(s);
  spdlog::info("ready");
  daemon.shutdown().Wait();
  spdlog::info("shutting down");
  loop.Stop();
  return daemon.Finish();
}
