// bazel run -c opt //tests/e2e:ha_benchmark
//
// Failover of gcushare-scheduler-extender replicas (docs/ha.md): 3 real
// extender processes with leader election (default timings) against the
// stand-in API server, called by the stand-in kube-scheduler through a
// round-robin front that, like a Service, sends new connections only to
// ready replicas. Pods (1 unit each) arrive at a steady rate on 2 nodes x
// 8 cards x 16 units. Three scenarios, one after the other:
//   sigkill  - the binder is SIGKILLed (restarted 10 s later);
//   sigterm  - the binder is stopped with SIGTERM (and restarted);
//   rolling  - every replica is stopped and restarted, one by one, each
//              waiting for its successor to be ready (maxUnavailable 0).
// Printed: for sigkill and sigterm, the time from the signal to the first
// bind that succeeded after it; for rolling, pods created, bound, not bound
// 30 s after the end; and at the end, the most memory any card holds
// (never above 16: no over-commit).
#include <spdlog/spdlog.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "extender/testing/objects.h"
#include "tests/e2e/ha_cluster.h"

namespace gcushare::e2e {
namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;
using std::chrono::milliseconds;
using std::chrono::seconds;

constexpr int kReplicas = 3;
constexpr double kPodsPerSecond = 8;

class Bench {
 public:
  int Run() {
    HaClusterOptions options;
    options.replicas = kReplicas;
    if (Status s = cluster_.Start(options); !s.ok()) return Fail(s.message());
    std::thread creator([this] { CreatePods(); });
    std::thread watcher([this] { WatchBinds(); });

    std::this_thread::sleep_for(seconds(3));
    const double kill_gap = Failover(/*kill=*/true);
    std::this_thread::sleep_for(seconds(3));
    const double term_gap = Failover(/*kill=*/false);
    std::this_thread::sleep_for(seconds(3));
    const size_t before = created_.load();
    for (int i = 0; i < kReplicas; ++i) {
      auto code = cluster_.StopExtender(i);
      if (!code.ok() || *code != 0) {
        std::printf("rolling: replica %d did not stop cleanly\n", i);
      }
      if (Status s = cluster_.StartExtender(i); !s.ok()) {
        return Fail(s.message());
      }
    }
    creating_ = false;
    creator.join();
    const size_t created = created_.load();
    const auto settle = Clock::now() + seconds(30);
    while (Clock::now() < settle && BoundCount() < created) {
      std::this_thread::sleep_for(milliseconds(100));
    }
    watching_ = false;
    watcher.join();
    const size_t bound = BoundCount();
    std::printf(
        "\nHA failover, %d replicas, lease 4s / renew 3s / retry "
        "0.5s, %.0f pods/s\n",
        kReplicas, kPodsPerSecond);
    std::printf("  SIGKILL of the binder: longest time without a bind %.2f s\n",
                kill_gap);
    std::printf("  SIGTERM of the binder: longest time without a bind %.2f s\n",
                term_gap);
    std::printf(
        "  rolling restart of %d replicas: %zu pods created during "
        "it, all %zu created, %zu bound, %zu not bound 30 s later\n",
        kReplicas, created - before, created, bound, created - bound);
    std::printf("  most memory on one card: %llu of 16 units (%s)\n",
                static_cast<unsigned long long>(MaxCardUse()),
                MaxCardUse() <= 16 ? "no over-commit" : "OVER-COMMITTED");
    PrintFailures();
    cluster_.Stop();
    return MaxCardUse() <= 16 ? 0 : 1;
  }

 private:
  int Fail(const std::string& why) {
    std::fprintf(stderr, "ha_benchmark: %s\n", why.c_str());
    return 1;
  }

  // Signals the binder; the longest time without a bind from the signal
  // on (pods keep arriving, so binds stop only while none can be made).
  // The replica is restarted afterwards.
  double Failover(bool kill) {
    int binder = -1;
    while ((binder = cluster_.Binder()) < 0) {
      std::this_thread::sleep_for(milliseconds(50));
    }
    const Clock::time_point t0 = Clock::now();
    std::thread stopper;
    if (kill) {
      cluster_.KillExtender(binder);
    } else {
      stopper =
          std::thread([this, binder] { (void)cluster_.StopExtender(binder); });
    }
    const seconds window(kill ? 10 : 6);
    std::this_thread::sleep_for(window);
    if (stopper.joinable()) stopper.join();
    (void)cluster_.StartExtender(binder);
    std::lock_guard<std::mutex> lock(mu_);
    const Clock::time_point end = t0 + window;
    double longest = 0;
    Clock::time_point last = t0;
    for (Clock::time_point t : bind_times_) {
      if (t <= t0) continue;
      if (t > end) break;
      longest =
          std::max(longest, std::chrono::duration<double>(t - last).count());
      last = t;
    }
    return longest;
  }

  void CreatePods() {
    const auto period = milliseconds(static_cast<int>(1000 / kPodsPerSecond));
    while (creating_) {
      const std::string name = "p" + std::to_string(created_.load());
      auto r =
          cluster_.api().Post("/api/v1/namespaces/default/pods",
                              extender::testing::MemoryPod(name, 1).dump());
      if (r.status == 201) ++created_;
      std::this_thread::sleep_for(period);
    }
  }

  void WatchBinds() {
    while (watching_) {
      auto list = cluster_.api().Get("/api/v1/namespaces/default/pods");
      if (list.status == 200) {
        const json parsed = json::parse(list.body);
        std::lock_guard<std::mutex> lock(mu_);
        for (const auto& pod : parsed["items"]) {
          if (pod["spec"].value("nodeName", "").empty()) continue;
          const std::string name = pod["metadata"]["name"];
          if (!bound_.insert(name).second) continue;
          bind_times_.push_back(Clock::now());
          const json a = pod["metadata"].value("annotations", json::object());
          card_use_[pod["spec"]["nodeName"].get<std::string>() + "/" +
                    a.value("enflame.com/gcu-device-id", "?")] += 1;
        }
      }
      std::this_thread::sleep_for(milliseconds(10));
    }
  }

  // kube-scheduler's FailedScheduling events, by message.
  void PrintFailures() {
    auto list = cluster_.api().Get("/api/v1/namespaces/default/events");
    if (list.status != 200) return;
    std::map<std::string, int> by_message;
    const json parsed = json::parse(list.body);
    for (const auto& event : parsed["items"]) {
      if (event.value("reason", "") != "FailedScheduling") continue;
      std::string message = event.value("message", "");
      const int count = event.value("count", 1);
      by_message[message.substr(0, 160)] += count;
    }
    if (!by_message.empty()) std::printf("  failed scheduling attempts:\n");
    for (const auto& [message, count] : by_message) {
      std::printf("    %4d x %s\n", count, message.c_str());
    }
  }

  size_t BoundCount() {
    std::lock_guard<std::mutex> lock(mu_);
    return bound_.size();
  }
  uint64_t MaxCardUse() {
    std::lock_guard<std::mutex> lock(mu_);
    uint64_t most = 0;
    for (const auto& [card, units] : card_use_) most = std::max(most, units);
    return most;
  }

  HaCluster cluster_;
  std::atomic<bool> creating_{true}, watching_{true};
  std::atomic<size_t> created_{0};
  std::mutex mu_;
  std::set<std::string> bound_;
  std::vector<Clock::time_point> bind_times_;
  std::map<std::string, uint64_t> card_use_;
};

}  // namespace
}  // namespace gcushare::e2e

int main() {
  spdlog::set_level(spdlog::level::warn);
  return gcushare::e2e::Bench().Run();
}
