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
#include "testing/files.h"
#include "testing/free_port.h"
#include "testing/kubeconfig.h"
#include "testing/subprocess.h"
#include "tests/e2e/component.h"
#include "tests/e2e/round_robin_front.h"
#include "tests/extender/harness.h"
#include "tests/peers/apiserver/testing/test_server.h"

namespace gcushare::e2e {
namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;
using std::chrono::milliseconds;
using std::chrono::seconds;

constexpr int kReplicas = 3;
constexpr double kPodsPerSecond = 8;

std::string SchedulerConfig(int port) {
  return "apiVersion: kubescheduler.config.k8s.io/v1\n"
         "kind: KubeSchedulerConfiguration\n"
         "leaderElection:\n  leaderElect: false\n"
         "profiles:\n- schedulerName: default-scheduler\n"
         "extenders:\n"
         "- urlPrefix: http://127.0.0.1:" +
         std::to_string(port) +
         "/gcushare-scheduler\n"
         "  filterVerb: filter\n  prioritizeVerb: prioritize\n"
         "  bindVerb: bind\n  weight: 1\n  enableHTTPS: false\n"
         "  nodeCacheCapable: true\n  ignorable: false\n"
         "  httpTimeout: 30s\n"
         "  managedResources:\n  - name: enflame.com/gcu-memory\n"
         "    ignoredByScheduler: false\n";
}

class Bench {
 public:
  Bench()
      : front_(kReplicas, "/gcushare-scheduler/healthz", milliseconds(200)) {}

  int Run() {
    dir_ = testing::MakeTempDir();
    kubeconfig_ = testing::WriteKubeconfig(dir_, api_.port());
    for (const char* node : {"n1", "n2"}) {
      auto r = api_.Post("/api/v1/nodes",
                         extender::testing::SharingNode(node, 8, 16).dump());
      if (r.status != 201) return Fail("node: " + r.body);
      // What the device plugin reports: 8 x 16 units, 8 cards.
      const json status = {{"status",
                            {{"capacity",
                              {{"enflame.com/gcu-memory", "128"},
                               {"enflame.com/gcu-count", "8"},
                               {"cpu", "64"},
                               {"memory", "256Gi"},
                               {"pods", "500"}}},
                             {"allocatable",
                              {{"enflame.com/gcu-memory", "128"},
                               {"enflame.com/gcu-count", "8"},
                               {"cpu", "64"},
                               {"memory", "256Gi"},
                               {"pods", "500"}}}}}};
      r = api_.Patch(std::string("/api/v1/nodes/") + node + "/status",
                     status.dump(), "application/merge-patch+json");
      if (r.status != 200) return Fail("node status: " + r.body);
    }
    if (!front_.Start().ok()) return Fail("front");
    for (int i = 0; i < kReplicas; ++i) {
      extenders_.push_back(std::make_unique<Component>(
          "extender-" + std::to_string(i),
          dir_ + "/extender-" + std::to_string(i) + ".out"));
      ports_.push_back(testing::FreeTcpPort());
      if (!StartExtender(i)) return 1;
    }
    {
      std::FILE* f = std::fopen((dir_ + "/scheduler.yaml").c_str(), "w");
      const std::string text = SchedulerConfig(front_.port());
      std::fwrite(text.data(), 1, text.size(), f);
      std::fclose(f);
    }
    Component scheduler("scheduler", dir_ + "/scheduler.out");
    Status s = scheduler.Start(
        {testing::RunfilePath("tests/peers/scheduler/scheduler"),
         "--kubeconfig=" + kubeconfig_, "--config=" + dir_ + "/scheduler.yaml",
         "--log-dir=" + dir_ + "/logs"});
    if (!s.ok()) return Fail(s.message());
    std::thread creator([this] { CreatePods(); });
    std::thread watcher([this] { WatchBinds(); });

    std::this_thread::sleep_for(seconds(3));
    const double kill_gap = Failover(/*kill=*/true);
    std::this_thread::sleep_for(seconds(3));
    const double term_gap = Failover(/*kill=*/false);
    std::this_thread::sleep_for(seconds(3));
    const size_t before = created_.load();
    for (int i = 0; i < kReplicas; ++i) {
      auto code = extenders_[i]->Stop(seconds(30));
      if (!code.ok() || *code != 0) {
        std::printf("rolling: replica %d did not stop cleanly\n", i);
      }
      if (!StartExtender(i)) return 1;
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
    (void)scheduler.Stop(seconds(10));
    for (auto& e : extenders_) e->Kill();
    front_.Stop();
    return MaxCardUse() <= 16 ? 0 : 1;
  }

 private:
  int Fail(const std::string& why) {
    std::fprintf(stderr, "ha_benchmark: %s\n", why.c_str());
    return 1;
  }

  bool StartExtender(int i) {
    front_.SetPort(i, 0);
    Status s = extenders_[i]->Start(
        {testing::RunfilePath("extender/gcushare-scheduler-extender"),
         "--kubeconfig=" + kubeconfig_, "--address=127.0.0.1",
         "--port=" + std::to_string(ports_[i]), "--log-dir=" + dir_ + "/logs",
         "--leader-elect=true", "--leader-elect-resource-namespace=default",
         "--shutdown-delay-duration=2s"});
    if (s.ok()) s = extenders_[i]->WaitForOutput("listening on", seconds(30));
    if (!s.ok()) {
      Fail(s.message());
      return false;
    }
    const auto deadline = Clock::now() + seconds(30);
    while (Clock::now() < deadline) {
      if (testing::HttpGet(ports_[i], "/gcushare-scheduler/healthz").status ==
          200) {
        front_.SetPort(i, ports_[i]);
        return true;
      }
      std::this_thread::sleep_for(milliseconds(20));
    }
    Fail("extender " + std::to_string(i) + " never ready");
    return false;
  }

  int Binder() {
    for (int i = 0; i < kReplicas; ++i) {
      auto a =
          testing::HttpGet(ports_[i], "/gcushare-scheduler/inspect/leader");
      if (a.status == 200 && json::parse(a.body)["binder"] == true) return i;
    }
    return -1;
  }

  // Signals the binder; the seconds from the signal to the first bind
  // after it. The replica is restarted afterwards.
  double Failover(bool kill) {
    int binder = -1;
    while ((binder = Binder()) < 0)
      std::this_thread::sleep_for(milliseconds(50));
    const Clock::time_point t0 = Clock::now();
    std::thread stopper;
    if (kill) {
      extenders_[binder]->Kill();
      front_.SetPort(binder, 0);
    } else {
      stopper = std::thread(
          [this, binder] { (void)extenders_[binder]->Stop(seconds(30)); });
    }
    std::this_thread::sleep_for(seconds(kill ? 10 : 6));
    if (stopper.joinable()) stopper.join();
    StartExtender(binder);
    // The longest time without a bind from the signal on (pods keep
    // arriving, so binds stop only while none can be made).
    std::lock_guard<std::mutex> lock(mu_);
    const Clock::time_point end = t0 + seconds(kill ? 10 : 6);
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
      auto r = api_.Post("/api/v1/namespaces/default/pods",
                         extender::testing::MemoryPod(name, 1).dump());
      if (r.status == 201) ++created_;
      std::this_thread::sleep_for(period);
    }
  }

  void WatchBinds() {
    while (watching_) {
      auto list = api_.Get("/api/v1/namespaces/default/pods");
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
    auto list = api_.Get("/api/v1/namespaces/default/events");
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

  apiserver::testing::TestServer api_;
  RoundRobinFront front_;
  std::string dir_, kubeconfig_;
  std::vector<std::unique_ptr<Component>> extenders_;
  std::vector<int> ports_;
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
