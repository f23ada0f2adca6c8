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

// The command-line flags.
struct Flags {
  std::string kubeconfig;
  std::string server;
  std::string config_path;
  std::string scheduler_name = std::string(sched::kDefaultSchedulerName);
  bool once = false;
  std::string style = "current";
  std::string max_unschedulable = "5m";
  CLI::Option* name_option = nullptr;  // --scheduler-name: was it given?
};

void AddFlags(CLI::App* app, Flags* flags) {
  app->add_option("--kubeconfig", flags->kubeconfig,
                  "kubeconfig file of the API server (default: in-cluster "
                  "configuration).");
  app->add_option("--server", flags->server,
                  "API server URL without authentication, e.g. "
                  "http://127.0.0.1:8080 (the stand-in API server); instead "
                  "of --kubeconfig.");
  app->add_option("--config", flags->config_path,
                  "KubeSchedulerConfiguration file "
                  "(kubescheduler.config.k8s.io/v1): its profiles' scheduler "
                  "names and its extenders are used (default: no extenders).");
  flags->name_option = app->add_option(
      "--scheduler-name", flags->scheduler_name,
      "Schedule only pods with this spec.schedulerName (default: the "
      "config's profile names, else default-scheduler).");
  app->add_flag("--once", flags->once,
                "Schedule every pod pending at start once, then exit: 0 when "
                "all were bound, 1 otherwise. Default: run until SIGTERM, "
                "scheduling pods as they appear.");
  app->add_option("--message-style", flags->style,
                  "Texts of failure messages: 'current' (Kubernetes 1.34+) "
                  "or '1.26' (as in the conformance captures).")
      ->check(CLI::IsMember({"current", "1.26"}));
  app->add_option("--pod-max-in-unschedulable-pods-duration",
                  flags->max_unschedulable,
                  "Continuous mode: retry an unschedulable pod after this Go "
                  "duration even if nothing changed (default 5m).");
}

// The schedulerNames served: --scheduler-name when given or when the config
// has no profiles, else the profiles' names.
std::set<std::string> SchedulerNames(const Flags& flags,
                                     const sched::SchedulerConfig& config) {
  std::set<std::string> names;
  if (flags.name_option->count() > 0 || config.profile_names.empty()) {
    names.insert(flags.scheduler_name);
  } else {
    names.insert(config.profile_names.begin(), config.profile_names.end());
  }
  return names;
}

// One HTTP extender per configured one, each logged; `http` is borrowed.
std::vector<std::unique_ptr<sched::HttpExtender>> MakeExtenders(
    const sched::SchedulerConfig& config, kube::CurlHttpClient* http) {
  std::vector<std::unique_ptr<sched::HttpExtender>> extenders;
  extenders.reserve(config.extenders.size());
  for (const sched::ExtenderConfig& extender : config.extenders) {
    extenders.push_back(std::make_unique<sched::HttpExtender>(extender, http));
    spdlog::info(
        "extender {}: filter={} prioritize={} bind={} weight={} "
        "nodeCacheCapable={} ignorable={}",
        extender.url_prefix, extender.filter_verb, extender.prioritize_verb,
        extender.bind_verb, extender.weight, extender.node_cache_capable,
        extender.ignorable);
  }
  return extenders;
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
  Flags flags;
  AddFlags(&daemon.app(), &flags);
  if (auto code = daemon.ParseFlags(argc, argv)) return *code;
  if (auto s = daemon.StartLogging(); !s.ok()) return daemon.Fail(s);

  sched::SchedulerConfig config;
  if (!flags.config_path.empty()) {
    auto loaded = sched::LoadSchedulerConfig(flags.config_path);
    if (!loaded.ok()) return daemon.Fail(loaded.status());
    config = *loaded;
  }
  const std::set<std::string> names = SchedulerNames(flags, config);
  auto retry = sched::ParseGoDuration(flags.max_unschedulable);
  if (!retry.ok()) {
    return daemon.Fail(
        retry.status().WithContext("--pod-max-in-unschedulable-pods-duration"));
  }

  auto client_config = ClientConfigFrom(flags.kubeconfig, flags.server);
  if (!client_config.ok()) return daemon.Fail(client_config.status());
  auto client = kube::CurlKubeClient::Create(*client_config);
  if (!client.ok()) return daemon.Fail(client.status());

  kube::CurlHttpClientOptions http_options;
  http_options.user_agent = std::string(sched::kGoUserAgent);
  kube::CurlHttpClient http(kube::TlsConfig{}, http_options);
  const std::vector<std::unique_ptr<sched::HttpExtender>> extenders =
      MakeExtenders(config, &http);
  std::vector<sched::Extender*> extender_ptrs;
  extender_ptrs.reserve(extenders.size());
  for (const auto& extender : extenders) {
    extender_ptrs.push_back(extender.get());
  }

  base::RealClock clock;
  sched::SchedulerOptions options;
  options.style = flags.style == "1.26" ? sched::MessageStyle::kV126
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

  if (flags.once) {
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
