// What a new binder's catch-up costs (extender/binding_catch_up.h): the
// consistent list of every pod it reads before its first bind, against
// the stand-in API server filled as the scale benchmark fills it, with
// the list cost of kube-apiserver 1.26 (tests/peers/apiserver/list_cost.h).
// Binds wait for it after a failover (docs/ha.md "Catching up").
//
// Runs the catch-up twice on one CardCache: cold (the cache counts
// nothing: every GCU pod is reserved), then warm (the cache counts every
// pod, as a replica's cache does when it becomes binder: nothing to add).
// Prints, for each, the wall time, this process's CPU (the stand-in's and
// the catch-up's), the lists' requests and megabytes, and pods added.
//
//   bazel run -c opt //extender/benchmarks:catch_up_benchmark --
//       [--nodes=N] [--gcu-pods=N] [--plain-pods=N] [--list-cost=free]
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

#include "extender/benchmarks/scheduler_driver.h"
#include "extender/binding_catch_up.h"
#include "extender/card_cache.h"
#include "extender/testing/scale_cluster.h"
#include "kube/curl_kube_client.h"
#include "spdlog/spdlog.h"
#include "tests/peers/apiserver/list_cost.h"
#include "tests/peers/apiserver/testing/test_server.h"

namespace gcushare::extender {
namespace {

using Clock = std::chrono::steady_clock;

bool ParseFlag(const char* arg, const char* name, int* value) {
  const size_t n = std::strlen(name);
  if (std::strncmp(arg, name, n) != 0 || arg[n] != '=') return false;
  *value = std::stoi(arg + n + 1);
  return true;
}

int Main(int argc, char** argv) {
  spdlog::set_level(spdlog::level::warn);
  testing::ScaleClusterSpec spec;
  bool free_lists = false;
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    if (ParseFlag(a, "--nodes", &spec.nodes) ||
        ParseFlag(a, "--gcu-pods", &spec.gcu_pods) ||
        ParseFlag(a, "--plain-pods", &spec.plain_pods)) {
      continue;
    }
    if (std::strcmp(a, "--list-cost=free") == 0) {
      free_lists = true;
      continue;
    }
    if (std::strcmp(a, "--list-cost=kube-apiserver-1.26") == 0) continue;
    std::fprintf(stderr,
                 "usage: catch_up_benchmark [--nodes=N] [--gcu-pods=N] "
                 "[--plain-pods=N] [--list-cost=free|kube-apiserver-1.26]\n");
    return 2;
  }
  apiserver::ServerOptions options;
  options.threads = 8;
  if (!free_lists) options.list_cost = apiserver::KubeApiserver126();
  apiserver::testing::TestServer api(options);
  if (Status s = testing::FillScaleCluster(spec, api.server().store());
      !s.ok()) {
    std::fprintf(stderr, "filling the stand-in: %s\n", s.ToString().c_str());
    return 1;
  }
  std::printf(
      "stand-in API server: %d nodes, %d pods (%d ask for GCU), "
      "list cost %s\n",
      spec.nodes, spec.gcu_pods + spec.plain_pods, spec.gcu_pods,
      free_lists ? "free" : "kube-apiserver-1.26");

  kube::ClientConfig config;
  config.server = "http://127.0.0.1:" + std::to_string(api.port());
  auto client = kube::CurlKubeClient::Create(config);
  if (!client.ok()) {
    std::fprintf(stderr, "%s\n", client.status().ToString().c_str());
    return 1;
  }
  CardCache cache;
  for (const char* run :
       {"cold (cache counts nothing)", "warm (cache counts every pod)"}) {
    const auto before =
        api.server().list_cost().counts(apiserver::ListSource::kEtcd);
    const auto cached_before =
        api.server().list_cost().counts(apiserver::ListSource::kWatchCache);
    const double cpu_before = CpuSeconds(getpid());
    const auto start = Clock::now();
    auto added = CatchUpBindings(client->get(), &cache, "kube-system");
    const double wall =
        std::chrono::duration<double>(Clock::now() - start).count();
    const double cpu = CpuSeconds(getpid()) - cpu_before;
    if (!added.ok()) {
      std::fprintf(stderr, "catch-up failed: %s\n",
                   added.status().ToString().c_str());
      return 1;
    }
    const auto after =
        api.server().list_cost().counts(apiserver::ListSource::kEtcd);
    const auto cached_after =
        api.server().list_cost().counts(apiserver::ListSource::kWatchCache);
    std::printf(
        "catch-up, %s: %.2f s, CPU %.2f s (stand-in and catch-up), "
        "etcd %llu requests %.1f MB, watch cache %llu requests %.1f MB, "
        "%zu pods added\n",
        run, wall, cpu,
        static_cast<unsigned long long>(after.requests - before.requests),
        static_cast<double>(after.bytes - before.bytes) / 1e6,
        static_cast<unsigned long long>(cached_after.requests -
                                        cached_before.requests),
        static_cast<double>(cached_after.bytes - cached_before.bytes) / 1e6,
        *added);
  }
  return 0;
}

}  // namespace
}  // namespace gcushare::extender

int main(int argc, char** argv) { return gcushare::extender::Main(argc, argv); }
