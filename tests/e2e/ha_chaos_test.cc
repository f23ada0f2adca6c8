// The chaos run's HA scenario (docs/ha.md): 200 sharing pods of 1 to 4
// units created at once on 2 nodes x 8 cards x 16 units, scheduled by the
// stand-in kube-scheduler through a round-robin front onto 3 extender
// replicas with leader election, while replicas (binder or not) are
// SIGKILLed at seeded random points and restarted. "Random points" are
// bind counts drawn by std::mt19937_64 and observed through the API server,
// never timed; the seed is in every failure message. Then, once nothing
// moves: no card holds more than its memory, and every pod left pending
// asks for more than any card has free (every pod that fits is bound).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "extender/testing/objects.h"
#include "tests/e2e/ha_cluster.h"

namespace gcushare::e2e {
namespace {

using nlohmann::json;
using std::chrono::milliseconds;
using std::chrono::seconds;

constexpr int kPods = 200;
constexpr uint64_t kCardUnits = 16;

struct State {
  size_t bound = 0;
  std::map<std::string, uint64_t> used;  // "node/card" -> units.
  std::vector<uint64_t> pending;         // Requests of unbound pods.
};

State Read(HaCluster& cluster, const std::map<std::string, uint64_t>& asks) {
  State state;
  auto list = cluster.api().Get("/api/v1/namespaces/default/pods");
  EXPECT_EQ(list.status, 200);
  const json parsed = json::parse(list.body);
  for (const auto& pod : parsed["items"]) {
    const std::string name = pod["metadata"]["name"];
    const std::string node = pod["spec"].value("nodeName", "");
    if (node.empty()) {
      state.pending.push_back(asks.at(name));
      continue;
    }
    ++state.bound;
    const json a = pod["metadata"].value("annotations", json::object());
    state.used[node + "/" + a.value("enflame.com/gcu-device-id", "?")] +=
        asks.at(name);
  }
  return state;
}

void RunScenario(uint64_t seed) {
  SCOPED_TRACE("seed " + std::to_string(seed));
  HaCluster cluster;
  HaClusterOptions options;
  // Parked pods retry after 5 s, so the run settles in seconds.
  options.max_unschedulable = "5s";
  ASSERT_TRUE(cluster.Start(options).ok());
  std::mt19937_64 rng(seed);
  std::map<std::string, uint64_t> asks;
  for (int i = 0; i < kPods; ++i) {
    const std::string name = "p" + std::to_string(i);
    const uint64_t units = 1 + rng() % 4;
    auto r =
        cluster.api().Post("/api/v1/namespaces/default/pods",
                           extender::testing::MemoryPod(name, units).dump());
    ASSERT_EQ(r.status, 201) << r.body;
    asks[name] = units;
  }
  // 16 cards hold at least 64 pods of at most 4 units: the kills fall
  // while pods are being bound.
  std::vector<size_t> points;
  points.reserve(4);
  for (int k = 0; k < 4; ++k) points.push_back(5 + rng() % 55);
  std::sort(points.begin(), points.end());
  int kills = 0;
  for (size_t point : points) {
    const int victim = static_cast<int>(rng() % cluster.replicas());
    const auto deadline = std::chrono::steady_clock::now() + seconds(120);
    while (Read(cluster, asks).bound < point &&
           std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(milliseconds(5));
    }
    const bool was_binder = cluster.Binder() == victim;
    cluster.KillExtender(victim);
    ++kills;
    ASSERT_TRUE(cluster.StartExtender(victim).ok())
        << "restart of replica " << victim;
    std::printf("seed %llu: SIGKILL of replica %d (%s) at %zu binds\n",
                static_cast<unsigned long long>(seed), victim,
                was_binder ? "the binder" : "a follower", point);
  }
  // Settled: nothing bound for 12 s (two unschedulable flushes).
  State state = Read(cluster, asks);
  auto still_since = std::chrono::steady_clock::now();
  const auto give_up = still_since + seconds(240);
  while (std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(milliseconds(500));
    State now = Read(cluster, asks);
    if (now.bound != state.bound) {
      state = now;
      still_since = std::chrono::steady_clock::now();
    } else if (std::chrono::steady_clock::now() - still_since > seconds(12)) {
      break;
    }
  }
  state = Read(cluster, asks);
  uint64_t most_free = 0;
  for (const std::string node : {"n1", "n2"}) {
    for (int card = 0; card < 8; ++card) {
      const std::string key = node + "/" + std::to_string(card);
      const uint64_t used = state.used.count(key) ? state.used.at(key) : 0;
      EXPECT_LE(used, kCardUnits) << "card " << key << " over-committed";
      most_free = std::max(most_free, kCardUnits - std::min(used, kCardUnits));
    }
  }
  for (const auto& [card, used] : state.used) {
    EXPECT_EQ(card.find('?'), std::string::npos) << "bound without a card";
  }
  for (uint64_t ask : state.pending) {
    EXPECT_GT(ask, most_free)
        << "a pod of " << ask << " units fits but was not bound";
  }
  std::printf(
      "seed %llu: %d pods, %zu bound, %zu pending (none fits), %d kills, "
      "0 over-commits\n",
      static_cast<unsigned long long>(seed), kPods, state.bound,
      state.pending.size(), kills);
}

TEST(HaChaosTest, ReplicasKilledAtRandomPointsNeverOverCommit) {
  RunScenario(1);
}

TEST(HaChaosTest, AnotherSeed) { RunScenario(20261128); }

}  // namespace
}  // namespace gcushare::e2e
