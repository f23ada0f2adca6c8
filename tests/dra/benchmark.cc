// bazel run -c opt //tests/dra:benchmark
// (GCUSHARE_DRA_DRIVER=<path> runs another build of the driver, e.g. the
// release image's.)
//
// gcushare-dra-driver's figures, the real binary against the stand-ins on
// this machine: how long after its start the node's slices are published,
// NodePrepareResources latency (p50/p99, one claim per call, as the
// kubelet calls per pod: the claim read from the API server, the CDI spec
// and the checkpoint written to disk), NodeUnprepareResources latency, and
// the driver's memory (VmRSS and VmHWM) with 128 claims prepared.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "tests/dra/dra_cluster.h"

namespace gcushare::testing {
namespace {

using Clock = std::chrono::steady_clock;

double Ms(Clock::duration d) {
  return std::chrono::duration<double, std::milli>(d).count();
}

double Percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t i =
      static_cast<size_t>(std::lround(p * static_cast<double>(v.size() - 1)));
  return v[std::min(i, v.size() - 1)];
}

std::string StatusLine(pid_t pid, const std::string& key) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key + ":", 0) == 0) {
      line = line.substr(key.size() + 1);
      line.erase(0, line.find_first_not_of(" \t"));
      return line;
    }
  }
  return "?";
}

int Run() {
  DraCluster cluster({.cards = 8});
  if (Status s = cluster.Start(); !s.ok()) {
    std::fprintf(stderr, "start: %s\n", s.ToString().c_str());
    return 1;
  }
  // Slices after start: a fresh driver, its slices deleted first.
  std::vector<double> publish_ms;
  for (int round = 0; round < 3; ++round) {
    (void)cluster.StopDriver(/*kill=*/true);
    auto slices = cluster.Slices();
    if (slices.ok()) {
      for (const auto& slice : *slices) {
        (void)cluster.client().Delete(
            kube::Resource::ResourceSlices(), "",
            slice["metadata"]["name"].get<std::string>(), {});
      }
    }
    const auto t0 = Clock::now();
    if (Status s = cluster.StartDriver(); !s.ok()) {
      std::fprintf(stderr, "driver: %s\n", s.ToString().c_str());
      return 1;
    }
    if (Status s = cluster.WaitForSlices(8); !s.ok()) {
      std::fprintf(stderr, "slices: %s\n", s.ToString().c_str());
      return 1;
    }
    publish_ms.push_back(Ms(Clock::now() - t0));
  }
  // Wait for the kubelet to see the new process.
  cluster.WaitFor([&] {
    for (const auto& p : cluster.kubelet().View().plugins) {
      if (p.connected) return true;
    }
    return false;
  });

  // 128 claims of 1 GiB on 8 cards of 16 GiB.
  if (!cluster.CreateClaimTemplate("share-1", "1Gi").ok()) return 1;
  for (int i = 0; i < 128; ++i) {
    if (!cluster.CreatePodWithTemplate("p" + std::to_string(i), "share-1")
             .ok()) {
      return 1;
    }
  }
  auto outcomes = cluster.SchedulePending();
  if (!outcomes.ok()) return 1;
  std::vector<peers::dra_kubelet::ClaimRef> claims;
  for (int i = 0; i < 128; ++i) {
    auto claim = cluster.GetClaimOf("p" + std::to_string(i));
    if (!claim.ok()) continue;
    claims.push_back(
        {"demo", (*claim)["metadata"]["uid"], (*claim)["metadata"]["name"]});
  }
  std::vector<double> prepare_ms;
  for (const auto& ref : claims) {
    const auto t0 = Clock::now();
    auto answers = cluster.kubelet().PrepareClaims("gcu.enflame.com", {ref});
    prepare_ms.push_back(Ms(Clock::now() - t0));
    if (!answers.ok() || !answers->at(ref.uid).error.empty()) {
      std::fprintf(stderr, "prepare %s failed\n", ref.name.c_str());
      return 1;
    }
  }
  const std::string rss = StatusLine(cluster.driver_pid(), "VmRSS");
  const std::string hwm = StatusLine(cluster.driver_pid(), "VmHWM");
  std::vector<double> again_ms;
  for (const auto& ref : claims) {
    const auto t0 = Clock::now();
    (void)cluster.kubelet().PrepareClaims("gcu.enflame.com", {ref});
    again_ms.push_back(Ms(Clock::now() - t0));
  }
  std::vector<double> unprepare_ms;
  for (const auto& ref : claims) {
    const auto t0 = Clock::now();
    (void)cluster.kubelet().UnprepareClaims("gcu.enflame.com", {ref});
    unprepare_ms.push_back(Ms(Clock::now() - t0));
  }
  std::printf(
      "gcushare-dra-driver, 8 fake cards x 16 GiB, %zu claims of 1 GiB\n",
      claims.size());
  std::printf("slices published after start: %.1f / %.1f / %.1f ms (3 runs)\n",
              publish_ms[0], publish_ms[1], publish_ms[2]);
  std::printf(
      "NodePrepareResources (new claim):      p50 %.2f ms  p99 %.2f ms\n",
      Percentile(prepare_ms, 0.5), Percentile(prepare_ms, 0.99));
  std::printf(
      "NodePrepareResources (already done):   p50 %.2f ms  p99 %.2f ms\n",
      Percentile(again_ms, 0.5), Percentile(again_ms, 0.99));
  std::printf(
      "NodeUnprepareResources:                p50 %.2f ms  p99 %.2f ms\n",
      Percentile(unprepare_ms, 0.5), Percentile(unprepare_ms, 0.99));
  std::printf("driver memory with %zu claims prepared: VmRSS %s, VmHWM %s\n",
              claims.size(), rss.c_str(), hwm.c_str());
  return 0;
}

}  // namespace
}  // namespace gcushare::testing

int main() { return gcushare::testing::Run(); }
