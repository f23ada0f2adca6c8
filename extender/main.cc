// gcushare-scheduler-extender: the kube-scheduler extender of GCUShare.
// See extender/http_server.h for the endpoints and README.md for operation.
#include <malloc.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <random>
#include <thread>

#include "base/allocator.h"
#include "base/clock.h"
#include "contract/names.h"
#include "daemon/daemon.h"
#include "daemon/version.h"
#include "extender/api_permissions.h"
#include "extender/bind_router.h"
#include "extender/binding_catch_up.h"
#include "extender/cache_feed.h"
#include "extender/cache_metrics.h"
#include "extender/card_cache.h"
#include "extender/extender_service.h"
#include "extender/http_server.h"
#include "extender/leader_metrics.h"
#include "extender/node_resources.h"
#include "extender/syscalls.h"
#include "ha/go_duration.h"
#include "ha/leader_elector.h"
#include "kube/component_client.h"
#include "kube/config.h"
#include "kube/curl_http_client.h"
#include "kube/curl_kube_client.h"
#include "kube/event_queue.h"
#include "kube/informer.h"
#include "kube/list_form.h"
#include "metrics/registry.h"
#include "placement/card_allocator.h"

namespace gcushare::extender {

using placement::ParsePolicy;
using placement::RequestHistory;

namespace {

// Leader-election flags (docs/ha.md), Kubernetes' names and forms.
struct HaFlags {
  bool leader_elect = false;
  std::string lease_duration = "4s";
  std::string renew_deadline = "3s";
  std::string retry_period = "500ms";
  std::string lease_namespace;
  std::string lease_name = std::string(contract::kExtenderName);
  std::string advertise_url;
  std::string shutdown_delay = "0s";
  std::string forward_wait;  // "": lease duration + 1 s.
};

void AddHaFlags(CLI::App& app, HaFlags* flags) {
  app.add_option("--leader-elect", flags->leader_elect,
                 "run as one of several replicas: the holder of a "
                 "coordination.k8s.io/v1 Lease makes every binding "
                 "decision and the others forward /bind to it (docs/ha.md)")
      ->capture_default_str();
  app.add_option("--leader-elect-lease-duration", flags->lease_duration,
                 "how long a follower waits, from its last sight of a "
                 "renewal, before taking over a Lease (whole seconds)")
      ->capture_default_str();
  app.add_option("--leader-elect-renew-deadline", flags->renew_deadline,
                 "how long the binder keeps binding without a successful "
                 "renewal; below the lease duration")
      ->capture_default_str();
  app.add_option("--leader-elect-retry-period", flags->retry_period,
                 "interval between attempts to take or renew the Lease")
      ->capture_default_str();
  app.add_option("--leader-elect-resource-namespace", flags->lease_namespace,
                 "namespace of the Lease (default: $POD_NAMESPACE, else "
                 "kube-system)");
  app.add_option("--leader-elect-resource-name", flags->lease_name,
                 "name of the Lease")
      ->capture_default_str();
  app.add_option("--advertise-url", flags->advertise_url,
                 "URL at which the other replicas reach this one (default: "
                 "http://$POD_IP:<port>, else the --address when it is one "
                 "address, else http://<host name>:<port>)");
  app.add_option("--bind-forward-wait", flags->forward_wait,
                 "how long a bind waits for a reachable binder when the "
                 "binder cannot be reached or none is elected (default: "
                 "the lease duration + 1s, so a killed binder makes binds "
                 "slow, not failed; keep below kube-scheduler's extender "
                 "httpTimeout)");
  app.add_option("--shutdown-delay-duration", flags->shutdown_delay,
                 "on SIGTERM, how long to keep answering after leaving "
                 "readiness (and handing the Lease over), so the Service "
                 "stops sending here before the port closes")
      ->capture_default_str();
}

std::string HostName() {
  char name[256] = {0};
  if (gethostname(name, sizeof(name) - 1) != 0) return "localhost";
  return name;
}

// Unique per process: host name (the pod name) and 8 random hex digits.
std::string NewIdentity() {
  std::random_device random;
  char suffix[16];
  std::snprintf(suffix, sizeof(suffix), "%08x", random());
  return HostName() + "_" + suffix;
}

// http://$POD_IP:<port>, else the listening address when it is one
// address, else the host name.
std::string DefaultUrl(const std::string& address, int port) {
  const char* ip = std::getenv("POD_IP");
  std::string host =
      ip != nullptr && *ip ? ip
      : (address != "0.0.0.0" && address != "::" && !address.empty())
          ? address
          : HostName();
  if (host.find(':') != std::string::npos) host = "[" + host + "]";
  return "http://" + host + ":" + std::to_string(port);
}

StatusOr<ha::LeaderElectionOptions> ElectionOptions(const HaFlags& flags,
                                                    const std::string& address,
                                                    int port) {
  ha::LeaderElectionOptions options;
  auto lease = ha::ParseGoDuration(flags.lease_duration);
  auto renew = ha::ParseGoDuration(flags.renew_deadline);
  auto retry = ha::ParseGoDuration(flags.retry_period);
  for (const auto* parsed : {&lease, &renew, &retry}) {
    if (!parsed->ok()) return parsed->status();
  }
  using std::chrono::duration_cast;
  using std::chrono::milliseconds;
  options.lease_duration = duration_cast<milliseconds>(*lease);
  options.renew_deadline = duration_cast<milliseconds>(*renew);
  options.retry_period = duration_cast<milliseconds>(*retry);
  options.lease_namespace = flags.lease_namespace;
  if (options.lease_namespace.empty()) {
    const char* ns = std::getenv("POD_NAMESPACE");
    options.lease_namespace = ns != nullptr && *ns ? ns : "kube-system";
  }
  options.lease_name = flags.lease_name;
  options.identity = NewIdentity();
  options.leader_url = flags.advertise_url;
  if (options.leader_url.empty())
    options.leader_url = DefaultUrl(address, port);
  GCUSHARE_RETURN_IF_ERROR(ha::ValidateLeaderElection(options));
  return options;
}

// The extender's own flags (AddFlags); HA's in `ha`.
struct Flags {
  std::string kubeconfig;
  std::string context;
  std::string address = "0.0.0.0";
  int port = contract::kExtenderDefaultPort;
  std::string policy = "binpack";
  int threads = 32;
  bool bind_requires_filter = true;
  double head_timeout_s = 5;
  double body_timeout_s = 5;
  double read_timeout_s = 5;
  int max_body_mib = 8;
  int max_buffered_mib = 32;
  int max_connections = 512;
  std::string list_form = "auto";
  HaFlags ha;
};

// The HTTP server's workers, timeouts and limits.
void AddHttpFlags(CLI::App& app, Flags* f) {
  app.add_option("--http-threads", f->threads,
                 "worker threads answering HTTP requests")
      ->capture_default_str()
      ->check(CLI::Range(2, 1024));
  app.add_option("--head-timeout", f->head_timeout_s,
                 "seconds within which a request head must arrive after its "
                 "first byte (408 and the connection closed otherwise)")
      ->capture_default_str()
      ->check(CLI::Range(0.01, 600.0));
  app.add_option("--body-timeout", f->body_timeout_s,
                 "seconds within which a POST body must arrive after its "
                 "headers (408 and the connection closed otherwise); requests "
                 "reach a worker only whole, so slow clients hold none")
      ->capture_default_str()
      ->check(CLI::Range(0.01, 600.0));
  app.add_option("--read-timeout", f->read_timeout_s,
                 "seconds a connection may stay silent (idle keep-alive or "
                 "mid-request), or leave an answer unread, before it is "
                 "closed")
      ->capture_default_str()
      ->check(CLI::Range(0.01, 600.0));
  app.add_option("--max-body-mib", f->max_body_mib,
                 "largest request body (413 beyond; with nodeCacheCapable: "
                 "true bodies are small)")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  app.add_option(
         "--max-buffered-mib", f->max_buffered_mib,
         "request and answer bytes buffered over all connections "
         "(503 beyond); a parsed body can take 16 x its text, so 17 x this "
         "plus the cache must fit the memory limit")
      ->capture_default_str()
      ->check(CLI::Range(1, 4096));
  app.add_option("--max-connections", f->max_connections,
                 "open connections (503 beyond); keep below the open-file "
                 "limit")
      ->capture_default_str()
      ->check(CLI::Range(8, 65536));
}

void AddFlags(CLI::App& app, Flags* f) {
  app.add_option("--kubeconfig", f->kubeconfig,
                 "kubeconfig file for the API server; absent: the in-cluster "
                 "service account configuration");
  app.add_option("--context", f->context,
                 "kubeconfig context to use instead of current-context");
  app.add_option("--address", f->address,
                 "address to listen on; the port has no authentication, so "
                 "reach it only from kube-scheduler and the metrics scraper "
                 "(the chart's networkPolicy) or listen on a single address")
      ->capture_default_str();
  app.add_option("--port", f->port,
                 "port to listen on; the endpoints are under "
                 "/gcushare-scheduler (0: any free port, logged)")
      ->capture_default_str()
      ->check(CLI::Range(0, 65535));
  app.add_option("--policy", f->policy,
                 "card choice: binpack (fill used cards first, keep whole "
                 "cards free) or spread (emptiest card first)")
      ->capture_default_str();
  AddHttpFlags(app, f);
  app.add_option("--bind-requires-filter", f->bind_requires_filter,
                 "bind only pods this process filtered onto that node in "
                 "the last 10 minutes (off with --leader-elect: the binder "
                 "did not see the other replicas' filters; with several "
                 "replicas without it, give the Service sessionAffinity "
                 "ClientIP)")
      ->capture_default_str();
  AddHaFlags(app, &f->ha);
  app.add_option("--list-form", f->list_form,
                 "how the informers list nodes and pods: auto (by the API "
                 "server's version), watch-cache (resourceVersion=0, whole, "
                 "as client-go) or consistent-paged (quorum reads, 500 a "
                 "page); docs/startup.md")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "watch-cache", "consistent-paged"}));
}

// The list form of --list-form `text` (checked); "auto" asks the API
// server its version (the watch cache when it does not answer).
kube::ListForm ListFormOf(const std::string& text,
                          kube::ComponentClient* client) {
  if (text != "auto") return *kube::ParseListForm(text);
  kube::ListForm list_form = kube::ListForm::kWatchCache;
  auto version = client->GetServerVersion();
  if (version.ok()) {
    list_form = kube::ChooseListForm(*version);
    spdlog::info("API server version {}.{}: lists from the {}", version->major,
                 version->minor, kube::ListFormName(list_form));
  } else {
    spdlog::warn("API server version unknown ({}): lists from the {}",
                 version.status().ToString(), kube::ListFormName(list_form));
  }
  return list_form;
}

// The node informer's options: sharing nodes only, in their kept form.
kube::InformerOptions NodeInformerOptions(kube::ListForm list_form) {
  kube::InformerOptions options;
  options.label_selector = std::string(contract::kSharingNodeLabel) + "=" +
                           std::string(contract::kSharingNodeLabelValue);
  options.list_form = list_form;
  options.transform = NodeKeptForm;
  options.fields = NodeFields();
  return options;
}

// The pod informer keeps only pods that ask for GCU resources, as their
// identity (docs/extender.md "What the extender keeps in memory"); the
// others reach NodeResources as unkept objects. The first list's pods are
// read straight from their text where they can be (extender/
// unkept_pod_text.h, extender/pod_text.h).
kube::InformerOptions PodInformerOptions(PodFeed* pod_feed,
                                         kube::ListForm list_form) {
  kube::InformerOptions options;
  options.transform = [pod_feed](const nlohmann::json& pod) {
    return pod_feed->KeptForm(pod);  // Hands its request on to pod_feed.
  };
  options.unkept_text = [pod_feed](std::string_view text) {
    return pod_feed->TakeUnkeptText(text);
  };
  options.kept_text = [pod_feed](std::string_view text) {
    return pod_feed->TakeKeptText(text);
  };
  options.fields = PodFields();
  options.list_form = list_form;
  return options;
}

// With --leader-elect: the elector (its metrics registered), and
// --bind-requires-filter off; without: null.
StatusOr<std::unique_ptr<ha::LeaderElector>> NewElector(
    Flags* flags, kube::KubeClient* api, base::Clock* clock,
    metrics::Registry* registry) {
  if (!flags->ha.leader_elect) return std::unique_ptr<ha::LeaderElector>();
  // The replica that binds is rarely the one that filtered: the filter
  // record of one process cannot vouch for another's (docs/ha.md).
  if (flags->bind_requires_filter) {
    spdlog::info(
        "--leader-elect: --bind-requires-filter does not apply (the "
        "binder did not see the other replicas' filters)");
    flags->bind_requires_filter = false;
  }
  const HaFlags& ha_flags = flags->ha;
  GCUSHARE_ASSIGN_OR_RETURN(
      ha::LeaderElectionOptions election,
      ElectionOptions(ha_flags, flags->address, flags->port));
  auto elector = std::make_unique<ha::LeaderElector>(api, clock, election);
  RegisterLeaderMetrics(elector.get(), registry);
  spdlog::info(
      "leader election on Lease {}/{} as {} ({}); lease {}, "
      "renew deadline {}, retry {}",
      election.lease_namespace, election.lease_name, election.identity,
      election.leader_url, ha_flags.lease_duration, ha_flags.renew_deadline,
      ha_flags.retry_period);
  return elector;
}

// How long a bind waits for a reachable binder: --bind-forward-wait, else
// the lease duration + 1 s.
StatusOr<BindRouterOptions> RouterOptions(const HaFlags& ha_flags,
                                          const ha::LeaderElector* elector) {
  BindRouterOptions options;
  if (elector != nullptr) {
    options.wait_for_leader =
        elector->options().lease_duration + std::chrono::seconds(1);
  }
  if (!ha_flags.forward_wait.empty()) {
    GCUSHARE_ASSIGN_OR_RETURN(auto wait,
                              ha::ParseGoDuration(ha_flags.forward_wait));
    options.wait_for_leader =
        std::chrono::duration_cast<std::chrono::milliseconds>(wait);
  }
  return options;
}

// Catches the cache up with every committed binding (a new binder's first
// step); `small_namespace` is the Lease's (the extender's own).
std::function<Status()> CatchUp(kube::KubeClient* api, CardCache* cache,
                                const std::string& small_namespace) {
  return [api, cache, small_namespace]() -> Status {
    auto added = CatchUpBindings(api, cache, small_namespace);
    if (!added.ok()) return added.status();
    spdlog::info("binder caught up: {} binding(s) not yet in the cache",
                 *added);
    return OkStatus();
  };
}

// The server's options of the flags; ready once both informers synced;
// binds go through `router` when `forward_binds`.
HttpServerOptions ServerOptions(const Flags& f, const kube::Informer* nodes,
                                const kube::Informer* pods,
                                const std::atomic<bool>* draining,
                                BindRouter* router, bool forward_binds) {
  HttpServerOptions options;
  options.address = f.address;
  options.port = f.port;
  options.worker_threads = f.threads;
  options.max_body_bytes = static_cast<size_t>(f.max_body_mib) << 20;
  options.max_buffered_bytes = static_cast<size_t>(f.max_buffered_mib) << 20;
  options.max_connections = static_cast<size_t>(f.max_connections);
  options.head_timeout =
      std::chrono::milliseconds(static_cast<int64_t>(f.head_timeout_s * 1000));
  options.body_timeout =
      std::chrono::milliseconds(static_cast<int64_t>(f.body_timeout_s * 1000));
  options.read_timeout =
      std::chrono::milliseconds(static_cast<int64_t>(f.read_timeout_s * 1000));
  options.ready = [nodes, pods] {
    return nodes->HasSynced() && pods->HasSynced();
  };
  options.draining = [draining] { return draining->load(); };
  if (forward_binds) {
    options.bind = [router](std::string_view body,
                            std::string_view forwarded_by) {
      return router->Bind(body, forwarded_by);
    };
  }
  options.role = [router] { return router->Role(); };
  return options;
}

// Out of readiness first; the binder stops binding (waiting for the
// binds under way) and hands the Lease over, so a successor binds at its
// next retry; then this replica keeps answering (forwarding binds) until
// the Service has moved on (docs/ha.md "What a failure costs").
void LeaveService(std::atomic<bool>* draining, BindRouter* router,
                  ha::LeaderElector* elector) {
  *draining = true;
  if (elector != nullptr) {
    router->StopBinding();
    if (Status s = elector->Resign(); !s.ok()) {
      spdlog::warn("could not hand the Lease over: {}", s.message());
    }
  }
}

// Everything after the API client: the cache and its informers, the
// service, the bind router and the HTTP server, until SIGTERM.
int Serve(Daemon* daemon, Flags flags, const placement::Policy& policy,
          kube::KubeClient* api, kube::ListForm list_form,
          const std::string& user_agent) {
  base::RealClock clock;
  metrics::Registry registry;
  CardCache cache;
  RegisterCacheMetrics(&cache, &registry);
  // Nodes' allocatable CPU/memory and every pod's requests, for the
  // binpack policy's host figures (docs/binpacking.md "The policies
  // replayed").
  NodeResources resources;
  NodeFeed node_feed(&cache, &resources);
  kube::EventQueue events(api, std::string(contract::kExtenderName));
  events.Start();
  // The binpack policy's request mix: every GCU pod the watch shows
  // holding card memory (the running ones at start, then each bound).
  RequestHistory history;
  PodFeed pod_feed(&cache, &events, &resources, &history);
  kube::Informer nodes(api, kube::Resource::Nodes(), "", &node_feed,
                       NodeInformerOptions(list_form));
  kube::Informer pods(api, kube::Resource::Pods(), "", &pod_feed,
                      PodInformerOptions(&pod_feed, list_form));

  auto shutdown_delay = ha::ParseGoDuration(flags.ha.shutdown_delay);
  if (!shutdown_delay.ok()) return daemon->Fail(shutdown_delay.status());
  auto elector = NewElector(&flags, api, &clock, &registry);
  if (!elector.ok()) return daemon->Fail(elector.status());
  FilterRecord filter_record(&clock, /*capacity=*/100000,
                             std::chrono::minutes(10));
  ExtenderService service(&cache, api, &clock, policy, &registry,
                          flags.bind_requires_filter ? &filter_record : nullptr,
                          &resources, &history);
  // Forwarded binds travel in the cluster network, plain HTTP as
  // kube-scheduler's calls do.
  kube::CurlHttpClientOptions forward_options;
  forward_options.connect_timeout = std::chrono::milliseconds(1000);
  forward_options.user_agent = user_agent;
  kube::CurlHttpClient forward_http(kube::TlsConfig{}, forward_options);
  auto router_options = RouterOptions(flags.ha, elector->get());
  if (!router_options.ok()) return daemon->Fail(router_options.status());
  BindRouter router(
      &service, elector->get(), &forward_http, &clock,
      CatchUp(api, &cache,
              *elector != nullptr ? (*elector)->options().lease_namespace
                                  : std::string("kube-system")),
      &registry, *router_options);
  std::atomic<bool> draining{false};
  ExtenderHttpServer server(&service, &registry,
                            ServerOptions(flags, &nodes, &pods, &draining,
                                          &router, *elector != nullptr));
  if (auto s = server.Start(); !s.ok()) return daemon->Fail(s);
  if (*elector != nullptr && flags.ha.advertise_url.empty() &&
      flags.port == 0) {
    (*elector)->SetLeaderUrl(
        DefaultUrl(flags.address, server.port()));  // Known only now.
  }
  // Logged in the form tests and operators look for.
  spdlog::info("listening on http://{}:{}{}", flags.address, server.port(),
               contract::kExtenderPathPrefix);

  if (auto s = daemon->Confine(ExtenderSyscalls()); !s.ok()) {
    return daemon->Fail(s);
  }
  nodes.Start();
  pods.Start();
  base::Cancellation election_done;
  std::thread election;
  if (*elector != nullptr) {
    election = std::thread([&] { (*elector)->Run(&election_done); });
  }

  daemon->shutdown().Wait();
  LeaveService(&draining, &router, elector->get());
  spdlog::info(
      "stopping: answering for {} more, then HTTP server, "
      "informers",
      flags.ha.shutdown_delay);
  clock.SleepFor(*shutdown_delay, nullptr);
  election_done.Cancel();
  if (election.joinable()) election.join();
  server.Stop();
  pods.Stop();
  nodes.Stop();
  events.Stop();
  return daemon->Finish();
}

int Run(int argc, char** argv) {
  // The next two tune glibc's malloc, which serves builds without
  // //third_party:tcmalloc (the sanitizer configurations); tcmalloc, which
  // the release links, ignores mallopt(). No fastbins: decoding a list page
  // frees thousands of small values, and glibc then sweeps them all
  // (malloc_consolidate) at every allocation of 1 KiB or more; without them
  // small frees go to the thread cache or are merged at once. Measured at 5,000
  // nodes / 150,000 pods: CPU until ready 4.0 s -> 2.4 s
  // (//extender/benchmarks:scale_benchmark, docs/extender.md "Why it decodes
  // and judges as it does"). Resident memory unchanged.
  mallopt(M_MXFAST, 0);
  // Two malloc arenas, not 8 per core: each of the 32 HTTP workers would
  // otherwise take one, and a filter's short-lived buffers (the body's
  // parse, the answer) leave each arena holding its own free memory.
  // Measured at full size: VmHWM at the end 217 -> 184 MiB, filter CPU
  // unchanged (0.46 ms).
  mallopt(M_ARENA_MAX, 2);
  // Under tcmalloc (//third_party:tcmalloc; it ignores the two above): its
  // threads' caches may hold 8 MiB of free memory together, not 32. Each
  // of the 32 HTTP workers keeps its own. Measured at 20,000 GCU pods:
  // VmHWM at the end 105 -> 99 MiB, start-up and filter CPU unchanged.
  base::LimitThreadCaches(size_t{8} << 20);
  Daemon daemon(std::string(contract::kExtenderName),
                "Scheduler extender of GCUShare: kube-scheduler calls it to "
                "filter nodes by free memory on ONE Enflame GCU card, to score "
                "them, and to bind pods to a chosen card.");
  Flags flags;
  AddFlags(daemon.app(), &flags);
  if (auto code = daemon.ParseFlags(argc, argv)) return *code;
  if (auto s = daemon.StartLogging(); !s.ok()) return daemon.Fail(s);

  auto policy = ParsePolicy(flags.policy);
  if (!policy.ok()) return daemon.Fail(policy.status());
  auto config = kube::ResolveConfig(flags.kubeconfig, flags.context);
  if (!config.ok()) return daemon.Fail(config.status());
  kube::KubeClientOptions client_options;
  client_options.http.user_agent =
      std::string(contract::kExtenderName) + "/" + std::string(Version());
  auto client = kube::ComponentClient::Connect(
      *config, std::string(contract::kExtenderName), ExtenderApiPermissions(),
      client_options);
  if (!client.ok()) return daemon.Fail(client.status());
  spdlog::info("API server {}; policy {}; {}", config->server, flags.policy,
               base::AllocatorName());
  const kube::ListForm list_form = ListFormOf(flags.list_form, client->get());
  return Serve(&daemon, flags, *policy, (*client)->api(), list_form,
               client_options.http.user_agent);
}

}  // namespace
}  // namespace gcushare::extender

int main(int argc, char** argv) { return gcushare::extender::Run(argc, argv); }
