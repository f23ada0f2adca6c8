// The stand-in kube-apiserver binary (//tests/peers:apiserver): serves the
// Kubernetes REST API subset GCUShare uses, for tests and the demo. Prints
// "listening on http://<address>:<port>" on stdout once it accepts
// connections, and stops cleanly on SIGTERM.
#include <spdlog/spdlog.h>

#include <cstdio>
#include <string>

#include "daemon/daemon.h"
#include "tests/peers/apiserver/api_server.h"
#include "tests/peers/apiserver/crash_on_binding.h"
#include "tests/peers/peer_syscalls.h"

namespace {

namespace apiserver = gcushare::apiserver;

// The flags that set no ServerOptions field directly.
struct Flags {
  int bookmark_ms = 1000;
  std::string cost_preset = "free";
  int crash_on_binding = 0;
  std::string crash_phase = "after-commit";
  std::string feature_gates;
};

// The server's own flags: listening, authentication, history, state.
void AddServerFlags(CLI::App* app, apiserver::ServerOptions* options,
                    Flags* flags) {
  app->add_option("--port", options->port,
                  "TCP port to listen on; 0 picks a free one (default 0).");
  app->add_option("--bind-address", options->bind_address,
                  "Address to listen on (default 127.0.0.1).");
  app->add_option("--token", options->token,
                  "Require 'Authorization: Bearer <token>' on every request; "
                  "others get 401 (default: no authentication).");
  app->add_option("--token-file", options->token_file,
                  "Like --token, but the accepted token is this file's "
                  "content, re-read on every request (rewrite the file to "
                  "rotate it; missing or empty: every request gets 401). "
                  "Exclusive with --token (default: none).");
  app->add_option("--history", options->history,
                  "Events kept for watches resuming from a resourceVersion; "
                  "older ones get 410 Expired (default 10000).");
  app->add_option("--bookmark-interval", flags->bookmark_ms,
                  "Milliseconds between BOOKMARK events on idle watches that "
                  "asked for them (default 1000).");
  app->add_option("--state-file", options->state_file,
                  "Journal every write to this file (JSON lines) and rebuild "
                  "the state from it on start (default: memory only).");
  app->add_option("--threads", options->threads,
                  "HTTP worker threads; each open watch holds one, so this "
                  "bounds concurrent connections (default 1024).");
  app->add_option("--watch-chunk-bytes", options->watch_chunk_bytes,
                  "Test knob: send each watch event line in HTTP chunks of "
                  "this many bytes, each written at once, so that clients see "
                  "lines split at arbitrary points; 0 sends one chunk per "
                  "line (default 0).");
}

// --list-cost and the --list-cost-* flags.
void AddListCostFlags(CLI::App* app, apiserver::ListCostOptions* cost,
                      Flags* flags) {
  app->add_option("--list-cost", flags->cost_preset,
                  "free, or kube-apiserver-1.26: cost lists as kube-apiserver "
                  "1.26.4 with etcd on 2 cores does (etcd 13 ms a page + 16 "
                  "ms/MB, watch cache 12 ms/MB; docs/startup.md); the "
                  "--list-cost-* flags below override parts of it (default "
                  "free).")
      ->check(CLI::IsMember({"free", "kube-apiserver-1.26"}));
  app->add_option("--list-cost-etcd-ms", cost->etcd_ms_per_request,
                  "Milliseconds each page of a list served from etcd (a "
                  "quorum read: no resourceVersion, a limit, a continue "
                  "token, or resourceVersionMatch=Exact) waits before it is "
                  "written (default 0).");
  app->add_option("--list-cost-etcd-ms-per-mb", cost->etcd_ms_per_mb,
                  "And per MB of its JSON (default 0).");
  app->add_option("--list-cost-cache-ms", cost->cache_ms_per_request,
                  "Milliseconds each list served from the watch cache "
                  "(resourceVersion=0, or N without limit) waits (default 0).");
  app->add_option("--list-cost-cache-ms-per-mb", cost->cache_ms_per_mb,
                  "And per MB of its JSON (default 0).");
  app->add_option("--list-cost-concurrency", cost->concurrency,
                  "Lists costed at once, the modelled server's cores; more "
                  "wait their turn (default 2).")
      ->check(CLI::PositiveNumber);
}

// The crash knobs, the feature gates and the reported version.
void AddTestFlags(CLI::App* app, apiserver::ServerOptions* options,
                  Flags* flags) {
  app->add_option("--crash-on-binding", flags->crash_on_binding,
                  "Test knob: SIGKILL this process upon the Nth Binding POST "
                  "since start (see --crash-phase); 0: never (default 0).")
      ->check(CLI::NonNegativeNumber);
  app->add_option("--crash-phase", flags->crash_phase,
                  "When --crash-on-binding kills: before-commit (nothing "
                  "written) or after-commit (the pod is bound and journaled, "
                  "the answer never sent) (default after-commit).");
  app->add_option("--feature-gates", flags->feature_gates,
                  "Comma-separated Gate=true|false pairs: "
                  "DRAConsumableCapacity, DRAExtendedResource (both default "
                  "true, as kube-apiserver 1.36).");
  app->add_option("--kube-version", options->kube_version,
                  "The release GET /version reports, v<major>.<minor>.<patch> "
                  "(default v1.31.0).");
}

// --list-cost=kube-apiserver-1.26: the preset, then what the flags set
// explicitly.
void ApplyListCostPreset(const CLI::App& app,
                         apiserver::ListCostOptions* cost) {
  const apiserver::ListCostOptions preset = apiserver::KubeApiserver126();
  auto given = [&app](const char* flag) { return app.count(flag) > 0; };
  if (!given("--list-cost-etcd-ms")) {
    cost->etcd_ms_per_request = preset.etcd_ms_per_request;
  }
  if (!given("--list-cost-etcd-ms-per-mb")) {
    cost->etcd_ms_per_mb = preset.etcd_ms_per_mb;
  }
  if (!given("--list-cost-cache-ms")) {
    cost->cache_ms_per_request = preset.cache_ms_per_request;
  }
  if (!given("--list-cost-cache-ms-per-mb")) {
    cost->cache_ms_per_mb = preset.cache_ms_per_mb;
  }
  if (!given("--list-cost-concurrency")) {
    cost->concurrency = preset.concurrency;
  }
}

}  // namespace

int main(int argc, char** argv) {
  gcushare::Daemon daemon(
      "gcushare-test-apiserver",
      "Stand-in Kubernetes API server for tests: pods (with status and "
      "binding), nodes (with status) and events over /api/v1, "
      "coordination.k8s.io/v1 leases and resource.k8s.io/v1 DRA kinds, with "
      "resourceVersions, list paging, selectors, the four patch types and "
      "watches.");
  apiserver::ServerOptions options;
  Flags flags;
  CLI::App& app = daemon.app();
  AddServerFlags(&app, &options, &flags);
  AddListCostFlags(&app, &options.list_cost, &flags);
  AddTestFlags(&app, &options, &flags);
  if (auto code = daemon.ParseFlags(argc, argv)) return *code;
  if (auto s = daemon.StartLogging(); !s.ok()) return daemon.Fail(s);
  options.bookmark_interval = std::chrono::milliseconds(flags.bookmark_ms);
  auto gates = apiserver::FeatureGates::Parse(flags.feature_gates);
  if (!gates.ok()) return daemon.Fail(gates.status());
  options.feature_gates = *gates;
  if (flags.cost_preset == "kube-apiserver-1.26") {
    ApplyListCostPreset(app, &options.list_cost);
  }
  auto phase = apiserver::ParseCrashPhase(flags.crash_phase);
  if (!phase.ok()) return daemon.Fail(phase.status());
  apiserver::CrashOnBinding crash(flags.crash_on_binding, *phase);
  crash.Install(&options);

  auto server = apiserver::ApiServer::Create(options);
  if (!server.ok()) return daemon.Fail(server.status());
  if (auto s = (*server)->Start(); !s.ok()) return daemon.Fail(s);
  if (auto s = daemon.Confine(gcushare::peers::PeerSyscalls()); !s.ok()) {
    return daemon.Fail(s);
  }
  std::printf("listening on http://%s:%d\n", options.bind_address.c_str(),
              (*server)->port());
  std::fflush(stdout);
  spdlog::info("listening on http://{}:{}", options.bind_address,
               (*server)->port());
  daemon.shutdown().Wait();
  spdlog::info("shutting down");
  (*server)->Stop();
  return daemon.Finish();
}
