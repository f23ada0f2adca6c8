// Extender benchmark: 5,000 nodes x 8 cards and 50,000 running pods in the
// cache; filter+prioritize for 500 candidates given by name
// (nodeCacheCapable true) and as full Node objects (false); then binds
// against the stand-in API server. Prints server-side p50/p99 latency (the
// work the HTTP handler does for one request: parse, decide, encode; no
// socket), requests/s on one thread, and peak RSS.
//
//   bazel run -c opt //extender/benchmarks:benchmark
#include <httplib.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "base/clock.h"
#include "extender/card_cache.h"
#include "extender/extender_service.h"
#include "extender/testing/objects.h"
#include "kube/curl_kube_client.h"
#include "metrics/registry.h"
#include "tests/peers/apiserver/testing/test_server.h"

namespace gcushare::extender {

using placement::Policy;

namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

constexpr int kNodes = 5000;
constexpr int kCards = 8;
constexpr int kPods = 50000;
constexpr int kCandidates = 500;

long PeakRssKib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * v.size()))];
}

std::string NodeName(int i) { return "node-" + std::to_string(i); }

// Times `fn` `rounds` times; prints p50/p99 in microseconds and calls/s.
template <typename Fn>
void Measure(const char* what, int rounds, Fn fn) {
  std::vector<double> micros;
  micros.reserve(rounds);
  auto start = Clock::now();
  for (int i = 0; i < rounds; ++i) {
    auto t0 = Clock::now();
    fn(i);
    micros.push_back(
        std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
  }
  double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  std::printf("%-52s p50 %9.1f us  p99 %9.1f us  %8.0f req/s\n", what,
              Percentile(micros, 0.5), Percentile(micros, 0.99),
              rounds / seconds);
}

int Run() {
  spdlog::set_level(spdlog::level::warn);
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::mt19937 rng(42);
  CardCache cache;
  std::vector<json> node_objects;
  node_objects.reserve(kNodes);
  for (int i = 0; i < kNodes; ++i) {
    node_objects.push_back(testing::SharingNode(NodeName(i), kCards, 16));
    cache.UpsertNode(node_objects.back());
  }
  for (int i = 0; i < kPods; ++i) {
    std::string name = "running-" + std::to_string(i);
    json pod = testing::Assigned(testing::MemoryPod(name, 1 + rng() % 3),
                                 NodeName(i % kNodes),
                                 {static_cast<uint32_t>(rng() % kCards)}, 16);
    (void)cache.UpsertPod(pod);
  }
  std::printf("cache: %zu nodes x %d cards, %zu pods; peak RSS %ld MiB\n",
              cache.node_count(), kCards, cache.pod_count(),
              PeakRssKib() / 1024);

  apiserver::testing::TestServer api;
  kube::ClientConfig config;
  config.server = "http://127.0.0.1:" + std::to_string(api.port());
  auto client = kube::CurlKubeClient::Create(config);
  if (!client.ok()) {
    std::fprintf(stderr, "%s\n", client.status().message().c_str());
    return 1;
  }
  base::RealClock clock;
  metrics::Registry registry;
  ExtenderService service(&cache, client->get(), &clock, Policy::kBinpack,
                          &registry);

  json pod = testing::MemoryPod("candidate", 4);
  std::vector<std::string> names;
  std::vector<json> full;
  for (int i = 0; i < kCandidates; ++i) {
    int n = static_cast<int>(rng() % kNodes);
    names.push_back(NodeName(n));
    full.push_back(node_objects[n]);
  }
  std::string by_name =
      json{{"Pod", pod}, {"Nodes", nullptr}, {"NodeNames", names}}.dump();
  std::string by_object = json{
      {"Pod", pod},
      {"Nodes", {{"metadata", json::object()}, {"items", full}}},
      {"NodeNames", nullptr}}.dump();
  std::printf("request bodies: %zu bytes (names), %zu bytes (full nodes)\n",
              by_name.size(), by_object.size());

  Measure("filter+prioritize, 500 names (server side)", 2000, [&](int) {
    (void)service.Filter(by_name);
    (void)service.Prioritize(by_name);
  });
  Measure("filter+prioritize, 500 full nodes (server side)", 200, [&](int) {
    (void)service.Filter(by_object);
    (void)service.Prioritize(by_object);
  });

  // Binds: create pods in the stand-in API server, then bind each through
  // the service (GET pod, PATCH annotations, POST binding, POST event).
  constexpr int kBinds = 500;
  std::vector<json> pending;
  for (int i = 0; i < kBinds; ++i) {
    auto created =
        api.Post("/api/v1/namespaces/default/pods",
                 testing::MemoryPod("bind-" + std::to_string(i), 2).dump());
    pending.push_back(json::parse(created.body));
  }
  int failures = 0;
  Measure("bind against the stand-in API server", kBinds, [&](int i) {
    json args = {{"PodName", pending[i]["metadata"]["name"]},
                 {"PodNamespace", "default"},
                 {"PodUID", pending[i]["metadata"]["uid"]},
                 {"Node", NodeName(i % kNodes)}};
    HttpReply reply = service.Bind(args.dump());
    if (json::parse(reply.body)["Error"] != "") ++failures;
  });
  std::printf("bind failures: %d\n", failures);
  std::printf("peak RSS: %ld MiB\n", PeakRssKib() / 1024);
  return failures == 0 ? 0 : 1;
}

}  // namespace
}  // namespace gcushare::extender

int main() { return gcushare::extender::Run(); }
