// gcushare-scheduler-extender: the kube-scheduler extender of GCUShare.
// See extender/http_server.h for the endpoints and README.md for operation.
#include <malloc.h>
#include <spdlog/spdlog.h>

#include <memory>

#include "base/clock.h"
#include "contract/names.h"
#include "daemon/daemon.h"
#include "daemon/version.h"
#include "extender/api_permissions.h"
#include "extender/cache_feed.h"
#include "extender/cache_metrics.h"
#include "extender/card_allocator.h"
#include "extender/card_cache.h"
#include "extender/extender_service.h"
#include "extender/http_server.h"
#include "extender/node_resources.h"
#include "extender/syscalls.h"
#include "kube/api_permissions.h"
#include "kube/config.h"
#include "kube/curl_kube_client.h"
#include "kube/event_queue.h"
#include "kube/informer.h"
#include "kube/list_form.h"
#include "metrics/registry.h"

namespace gcushare::extender {
namespace {

int Run(int argc, char** argv) {
  // No fastbins: decoding a list page frees thousands of small values, and
  // glibc then sweeps them all (malloc_consolidate) at every allocation of
  // 1 KiB or more; without them small frees go to the thread cache or are
  // merged at once. Measured at 5,000 nodes / 150,000 pods: CPU until
  // ready 4.0 s -> 2.4 s (//extender:scale_benchmark, README "The
  // extender's memory"). Resident memory unchanged.
  mallopt(M_MXFAST, 0);
  // Two malloc arenas, not 8 per core: each of the 32 HTTP workers would
  // otherwise take one, and a filter's short-lived buffers (the body's
  // parse, the answer) leave each arena holding its own free memory.
  // Measured at full size: VmHWM at the end 217 -> 184 MiB, filter CPU
  // unchanged (0.46 ms).
  mallopt(M_ARENA_MAX, 2);
  Daemon daemon(std::string(contract::kExtenderName),
                "Scheduler extender of GCUShare: kube-scheduler calls it to "
                "filter nodes by free memory on ONE Enflame GCU card, to score "
                "them, and to bind pods to a chosen card.");
  CLI::App& app = daemon.app();
  std::string kubeconfig;
  std::string context;
  std::string address = "0.0.0.0";
  int port = contract::kExtenderDefaultPort;
  std::string policy_text = "binpack";
  int threads = 32;
  bool bind_requires_filter = true;
  double head_timeout_s = 5;
  double body_timeout_s = 5;
  double read_timeout_s = 5;
  int max_body_mib = 8;
  int max_buffered_mib = 32;
  int max_connections = 512;
  std::string list_form_text = "auto";
  app.add_option("--kubeconfig", kubeconfig,
                 "kubeconfig file for the API server; absent: the in-cluster "
                 "service account configuration");
  app.add_option("--context", context,
                 "kubeconfig context to use instead of current-context");
  app.add_option("--address", address,
                 "address to listen on; the port has no authentication, so "
                 "reach it only from kube-scheduler and the metrics scraper "
                 "(the chart's networkPolicy) or listen on a single address")
      ->capture_default_str();
  app.add_option("--port", port,
                 "port to listen on; the endpoints are under "
                 "/gcushare-scheduler (0: any free port, logged)")
      ->capture_default_str()
      ->check(CLI::Range(0, 65535));
  app.add_option("--policy", policy_text,
                 "card choice: binpack (fill used cards first, keep whole "
                 "cards free) or spread (emptiest card first)")
      ->capture_default_str();
  app.add_option("--http-threads", threads,
                 "worker threads answering HTTP requests")
      ->capture_default_str()
      ->check(CLI::Range(2, 1024));
  app.add_option("--head-timeout", head_timeout_s,
                 "seconds within which a request head must arrive after its "
                 "first byte (408 and the connection closed otherwise)")
      ->capture_default_str()
      ->check(CLI::Range(0.01, 600.0));
  app.add_option("--body-timeout", body_timeout_s,
                 "seconds within which a POST body must arrive after its "
                 "headers (408 and the connection closed otherwise); requests "
                 "reach a worker only whole, so slow clients hold none")
      ->capture_default_str()
      ->check(CLI::Range(0.01, 600.0));
  app.add_option("--read-timeout", read_timeout_s,
                 "seconds a connection may stay silent (idle keep-alive or "
                 "mid-request), or leave an answer unread, before it is "
                 "closed")
      ->capture_default_str()
      ->check(CLI::Range(0.01, 600.0));
  app.add_option("--max-body-mib", max_body_mib,
                 "largest request body (413 beyond; with nodeCacheCapable: "
                 "true bodies are small)")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  app.add_option(
         "--max-buffered-mib", max_buffered_mib,
         "request and answer bytes buffered over all connections "
         "(503 beyond); a parsed body can take 16 x its text, so 17 x this "
         "plus the cache must fit the memory limit")
      ->capture_default_str()
      ->check(CLI::Range(1, 4096));
  app.add_option("--max-connections", max_connections,
                 "open connections (503 beyond); keep below the open-file "
                 "limit")
      ->capture_default_str()
      ->check(CLI::Range(8, 65536));
  app.add_option("--bind-requires-filter", bind_requires_filter,
                 "bind only pods this process filtered onto that node in "
                 "the last 10 minutes (with several replicas, give the "
                 "Service sessionAffinity ClientIP, as the chart does)")
      ->capture_default_str();
  app.add_option("--list-form", list_form_text,
                 "how the informers list nodes and pods: auto (by the API "
                 "server's version), watch-cache (resourceVersion=0, whole, "
                 "as client-go) or consistent-paged (quorum reads, 500 a "
                 "page); docs/startup.md")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "watch-cache", "consistent-paged"}));
  if (auto code = daemon.ParseFlags(argc, argv)) return *code;
  if (auto s = daemon.StartLogging(); !s.ok()) return daemon.Fail(s);

  auto policy = ParsePolicy(policy_text);
  if (!policy.ok()) return daemon.Fail(policy.status());
  auto config = kube::ResolveConfig(kubeconfig, context);
  if (!config.ok()) return daemon.Fail(config.status());
  kube::KubeClientOptions client_options;
  client_options.http.user_agent =
      std::string(contract::kExtenderName) + "/" + std::string(Version());
  auto client = kube::CurlKubeClient::Create(*config, client_options);
  if (!client.ok()) return daemon.Fail(client.status());
  spdlog::info("API server {}; policy {}", config->server, policy_text);
  kube::ListForm list_form = kube::ListForm::kWatchCache;
  if (list_form_text == "auto") {
    auto version = (*client)->GetServerVersion();
    if (version.ok()) {
      list_form = kube::ChooseListForm(*version);
      spdlog::info("API server version {}.{}: lists from the {}",
                   version->major, version->minor,
                   kube::ListFormName(list_form));
    } else {
      spdlog::warn("API server version unknown ({}): lists from the {}",
                   version.status().ToString(), kube::ListFormName(list_form));
    }
  } else {
    list_form = *kube::ParseListForm(list_form_text);
  }
  kube::PermissionCheckingKubeClient api(client->get(),
                                         std::string(contract::kExtenderName),
                                         ExtenderApiPermissions());

  base::RealClock clock;
  metrics::Registry registry;
  CardCache cache;
  RegisterCacheMetrics(&cache, &registry);
  // Nodes' allocatable CPU/memory and every pod's requests, for the
  // binpack policy's host figures (README "Binpacking on Alibaba's traces").
  NodeResources resources;
  NodeFeed node_feed(&cache, &resources);
  kube::EventQueue events(&api, std::string(contract::kExtenderName));
  events.Start();
  // The binpack policy's request mix: every GCU pod the watch shows
  // holding card memory (the running ones at start, then each bound).
  RequestHistory history;
  PodFeed pod_feed(&cache, &events, &resources, &history);
  kube::InformerOptions node_options;
  node_options.label_selector = std::string(contract::kSharingNodeLabel) + "=" +
                                std::string(contract::kSharingNodeLabelValue);
  node_options.list_form = list_form;
  node_options.transform = NodeKeptForm;
  node_options.fields = NodeFields();
  kube::Informer nodes(&api, kube::Resource::Nodes(), "", &node_feed,
                       node_options);
  // The pod informer keeps only pods that ask for GCU resources, as their
  // identity (README "The extender's memory"); the others reach
  // NodeResources as unkept objects.
  kube::InformerOptions pod_options;
  pod_options.transform = [&pod_feed](const nlohmann::json& pod) {
    return pod_feed.KeptForm(pod);  // Hands its request on to pod_feed.
  };
  pod_options.fields = PodFields();
  pod_options.list_form = list_form;
  kube::Informer pods(&api, kube::Resource::Pods(), "", &pod_feed, pod_options);

  FilterRecord filter_record(&clock, /*capacity=*/100000,
                             std::chrono::minutes(10));
  ExtenderService service(&cache, &api, &clock, *policy, &registry,
                          bind_requires_filter ? &filter_record : nullptr,
                          &resources, &history);
  HttpServerOptions server_options;
  server_options.address = address;
  server_options.port = port;
  server_options.worker_threads = threads;
  server_options.max_body_bytes = static_cast<size_t>(max_body_mib) << 20;
  server_options.max_buffered_bytes = static_cast<size_t>(max_buffered_mib)
                                      << 20;
  server_options.max_connections = static_cast<size_t>(max_connections);
  server_options.head_timeout =
      std::chrono::milliseconds(static_cast<int64_t>(head_timeout_s * 1000));
  server_options.body_timeout =
      std::chrono::milliseconds(static_cast<int64_t>(body_timeout_s * 1000));
  server_options.read_timeout =
      std::chrono::milliseconds(static_cast<int64_t>(read_timeout_s * 1000));
  server_options.ready = [&nodes, &pods] {
    return nodes.HasSynced() && pods.HasSynced();
  };
  ExtenderHttpServer server(&service, &registry, server_options);
  if (auto s = server.Start(); !s.ok()) return daemon.Fail(s);
  // Logged in the form tests and operators look for.
  spdlog::info("listening on http://{}:{}{}", address, server.port(),
               contract::kExtenderPathPrefix);

  if (auto s = daemon.Confine(ExtenderSyscalls()); !s.ok()) {
    return daemon.Fail(s);
  }
  nodes.Start();
  pods.Start();

  daemon.shutdown().Wait();
  spdlog::info("stopping: HTTP server, then informers");
  server.Stop();
  pods.Stop();
  nodes.Stop();
  events.Stop();
  return daemon.Finish();
}

}  // namespace
}  // namespace gcushare::extender

int main(int argc, char** argv) { return gcushare::extender::Run(argc, argv); }
