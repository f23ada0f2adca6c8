// Several gcushare-scheduler-extender processes with leader election
// against the stand-in API server (coordination.k8s.io/v1 Leases), over
// real sockets: any replica answers any bind, exactly one binds, and no
// card is ever over-committed, whichever replica is asked, through
// SIGKILL, SIGTERM and a partition from the Lease (docs/ha.md).
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "extender/testing/objects.h"
#include "testing/eventually.h"
#include "testing/files.h"
#include "tests/extender/harness.h"
#include "tests/peers/apiserver/testing/test_server.h"

namespace gcushare {
namespace {

using extender::testing::MemoryPod;
using extender::testing::SharingNode;
using nlohmann::json;

// Short timings so the tests take seconds; the rules are the defaults'.
const std::vector<std::string> kHaFlags = {
    "--leader-elect=true",
    "--leader-elect-resource-namespace=default",
    "--leader-elect-lease-duration=2s",
    "--leader-elect-renew-deadline=1500ms",
    "--leader-elect-retry-period=200ms",
    "--shutdown-delay-duration=1s",
};

class HaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::MakeTempDir();
    kubeconfig_ = testing::WriteKubeconfig(dir_, api_.port());
  }
  void TearDown() override {
    ReleaseBindings(0);
    for (auto& r : replicas_) r->Kill();
  }

  // Starts replica i (a new one, or again after it stopped).
  void Start(size_t i, const std::vector<std::string>& extra = {}) {
    while (replicas_.size() <= i) {
      replicas_.push_back(std::make_unique<testing::ExtenderProcess>());
    }
    std::vector<std::string> flags = kHaFlags;
    flags.insert(flags.end(), extra.begin(), extra.end());
    Status s = replicas_[i]->Start(kubeconfig_,
                                   dir_ + "/logs" + std::to_string(i), flags);
    ASSERT_TRUE(s.ok()) << s.message();
  }
  testing::ExtenderProcess& R(size_t i) { return *replicas_[i]; }

  void CreateNode(const json& node) {
    auto r = api_.Post("/api/v1/nodes", node.dump());
    ASSERT_EQ(r.status, 201) << r.body;
  }
  json CreatePod(const std::string& name, uint64_t memory) {
    auto r = api_.Post("/api/v1/namespaces/default/pods",
                       MemoryPod(name, memory).dump());
    EXPECT_EQ(r.status, 201) << r.body;
    requests_[name] = memory;
    return json::parse(r.body);
  }
  // The bind's Error ("" on success); "no answer" when the connection
  // failed.
  static std::string Bind(testing::ExtenderProcess& r, const json& pod,
                          const std::string& node) {
    json args = {{"PodName", pod["metadata"]["name"]},
                 {"PodNamespace", pod["metadata"]["namespace"]},
                 {"PodUID", pod["metadata"]["uid"]},
                 {"Node", node}};
    auto answer = r.Post("/bind", args.dump());
    if (answer.status != 200) return "no answer (" + answer.body + ")";
    return json::parse(answer.body)["Error"].get<std::string>();
  }
  // Which replica is the binder now (-1: none), from any replica's view.
  int Binder() {
    for (size_t i = 0; i < replicas_.size(); ++i) {
      auto answer = R(i).Get("/inspect/leader");
      if (answer.status == 200 && json::parse(answer.body)["binder"] == true) {
        return static_cast<int>(i);
      }
    }
    return -1;
  }
  int WaitForBinder() {
    int binder = -1;
    EXPECT_TRUE(testing::Eventually([&] { return (binder = Binder()) >= 0; }));
    return binder;
  }
  // Card memory per node/card from the pods' annotations, and the pods
  // bound.
  std::map<std::string, uint64_t> UsedPerCard(size_t* bound = nullptr) {
    auto list = api_.Get("/api/v1/namespaces/default/pods");
    EXPECT_EQ(list.status, 200);
    std::map<std::string, uint64_t> used;
    size_t n = 0;
    const json parsed = json::parse(list.body);
    for (const auto& pod : parsed["items"]) {
      const std::string node = pod["spec"].value("nodeName", "");
      if (node.empty()) continue;
      ++n;
      const json annotations =
          pod["metadata"].value("annotations", json::object());
      const std::string card =
          annotations.value("enflame.com/gcu-device-id", "?");
      std::string key = node;
      key += "/";
      key += card;
      used[key] += requests_[pod["metadata"]["name"].get<std::string>()];
    }
    if (bound != nullptr) *bound = n;
    return used;
  }
  void ExpectNoOverCommit(uint64_t card_units) {
    for (const auto& [card, units] : UsedPerCard()) {
      EXPECT_LE(units, card_units) << "card " << card << " over-committed";
      EXPECT_EQ(card.find('?'), std::string::npos) << "bound without a card";
    }
  }
  // Holds every Binding in the API server until ReleaseBindings(code):
  // then each is refused with `code` (0: handled as usual).
  void HoldBindings() {
    std::lock_guard<std::mutex> lock(mu_);
    hold_ = true;
  }
  void ReleaseBindings(int code) {
    std::lock_guard<std::mutex> lock(mu_);
    hold_ = false;
    release_code_ = code;
    released_.notify_all();
  }
  bool BindingHeld() { return held_.load() > 0; }

  std::mutex mu_;
  std::condition_variable released_;
  bool hold_ = false;     // Guarded by mu_.
  int release_code_ = 0;  // Guarded by mu_.
  std::atomic<int> held_{0};
  std::atomic<int> lease_refusal_{0};
  apiserver::testing::TestServer api_{[this] {
    apiserver::ServerOptions options;
    options.fail_before_handle = [this](const std::string& method,
                                        const std::string& path) {
      if (path.find("/leases") != std::string::npos) {
        return lease_refusal_.load();
      }
      if (method == "POST" && path.size() > 8 &&
          path.compare(path.size() - 8, 8, "/binding") == 0) {
        std::unique_lock<std::mutex> lock(mu_);
        if (!hold_) return 0;
        ++held_;
        released_.wait(lock, [this] { return !hold_; });
        --held_;
        return release_code_;
      }
      return 0;
    };
    return options;
  }()};
  std::string dir_;
  std::string kubeconfig_;
  std::vector<std::unique_ptr<testing::ExtenderProcess>> replicas_;
  std::map<std::string, uint64_t> requests_;
};

TEST_F(HaTest, ThreeReplicasBindTheSameCardAtOnceWithoutOverCommit) {
  CreateNode(SharingNode("n1", 2, 16));
  for (size_t i = 0; i < 3; ++i) Start(i);
  WaitForBinder();
  // 12 pods of 6 units, 2 cards of 16: at most 2 per card fit.
  std::vector<json> pods;
  pods.reserve(12);
  for (int i = 0; i < 12; ++i) {
    pods.push_back(CreatePod("p" + std::to_string(i), 6));
  }
  std::vector<std::string> errors(pods.size());
  std::vector<std::thread> threads;
  for (size_t i = 0; i < pods.size(); ++i) {
    threads.emplace_back([&, i] { errors[i] = Bind(R(i % 3), pods[i], "n1"); });
  }
  for (auto& t : threads) t.join();
  size_t ok = 0;
  for (const std::string& e : errors) ok += e.empty() ? 1 : 0;
  size_t bound = 0;
  UsedPerCard(&bound);
  EXPECT_EQ(ok, 4u);
  EXPECT_EQ(bound, 4u);
  ExpectNoOverCommit(16);
  // Every replica answers /inspect/leader with the same binder.
  const int binder = Binder();
  for (size_t i = 0; i < 3; ++i) {
    auto role = json::parse(R(i).Get("/inspect/leader").body);
    EXPECT_EQ(role["binder"], static_cast<int>(i) == binder);
    EXPECT_FALSE(role["leader"].get<std::string>().empty());
  }
}

TEST_F(HaTest, BinderKilledBetweenDecisionAndBindingBindsNothingTwice) {
  CreateNode(SharingNode("n1", 1, 16));
  for (size_t i = 0; i < 2; ++i) Start(i);
  const int binder = WaitForBinder();
  const int other = 1 - binder;
  json a = CreatePod("a", 12);
  // The binder has chosen the card and sent the Binding: hold it, and kill
  // the binder (SIGKILL) while it is in flight; it then commits.
  HoldBindings();
  std::thread bind([&] { (void)Bind(R(other), a, "n1"); });
  ASSERT_TRUE(testing::Eventually([&] { return BindingHeld(); }));
  R(binder).Kill();
  ReleaseBindings(0);
  bind.join();
  // The survivor takes over after the lease duration, catches up with the
  // committed Binding, and refuses a pod that no longer fits.
  ASSERT_TRUE(testing::Eventually([&] { return Binder() == other; }));
  json b = CreatePod("b", 8);
  EXPECT_NE(Bind(R(other), b, "n1"), "");
  json c = CreatePod("c", 3);
  EXPECT_EQ(Bind(R(other), c, "n1"), "");
  ExpectNoOverCommit(16);
  // The killed replica comes back as a follower and forwards.
  Start(static_cast<size_t>(binder));
  json d = CreatePod("d", 1);
  EXPECT_EQ(Bind(R(binder), d, "n1"), "");
  ExpectNoOverCommit(16);
}

TEST_F(HaTest, FollowerForwardingToADeadBinderFailsCleanly) {
  CreateNode(SharingNode("n1", 1, 16));
  // Binds wait at most 100 ms for a reachable binder.
  for (size_t i = 0; i < 2; ++i) Start(i, {"--bind-forward-wait=100ms"});
  const int binder = WaitForBinder();
  const int other = 1 - binder;
  R(binder).Kill();
  json a = CreatePod("a", 10);
  // Its Lease has not expired: the follower forwards, the connection is
  // refused, nothing is bound, kube-scheduler retries.
  const std::string error = Bind(R(other), a, "n1");
  EXPECT_NE(error.find("cannot forward"), std::string::npos) << error;
  auto pod = api_.Get("/api/v1/namespaces/default/pods/a");
  EXPECT_FALSE(json::parse(pod.body)["spec"].contains("nodeName"));
  ASSERT_TRUE(testing::Eventually([&] { return Binder() == other; }));
  EXPECT_EQ(Bind(R(other), a, "n1"), "");
  EXPECT_EQ(Bind(R(other), a, "n1"), "");  // A retry: success, once.
  size_t bound = 0;
  UsedPerCard(&bound);
  EXPECT_EQ(bound, 1u);
}

// By default a bind waits out the failover (lease duration + 1 s) instead
// of failing: kube-scheduler 1.26 would park a failed pod for 5 minutes.
TEST_F(HaTest, BindThroughAFollowerWaitsOutAKilledBinder) {
  CreateNode(SharingNode("n1", 1, 16));
  for (size_t i = 0; i < 2; ++i) Start(i);
  const int binder = WaitForBinder();
  const int other = 1 - binder;
  R(binder).Kill();
  json a = CreatePod("a", 10);
  EXPECT_EQ(Bind(R(other), a, "n1"), "");
  EXPECT_EQ(Binder(), other);
  size_t bound = 0;
  UsedPerCard(&bound);
  EXPECT_EQ(bound, 1u);
}

TEST_F(HaTest, SigtermDuringABurstLosesNoPod) {
  CreateNode(SharingNode("n1", 8, 16));
  for (size_t i = 0; i < 3; ++i) Start(i);
  const int binder = WaitForBinder();
  std::vector<json> pods;
  pods.reserve(60);
  for (int i = 0; i < 60; ++i) {
    pods.push_back(CreatePod("p" + std::to_string(i), 2));
  }
  // kube-scheduler: each pod is bound through some replica, retried on an
  // error, never through the stopping one once it left readiness.
  std::atomic<int> failures{0};
  std::atomic<bool> stopping{false};
  std::vector<std::string> last_error(pods.size());
  std::vector<std::thread> threads;
  threads.reserve(3);
  for (int t = 0; t < 3; ++t) {
    threads.emplace_back([&, t] {
      for (size_t i = t; i < pods.size(); i += 3) {
        for (int attempt = 0; attempt < 50; ++attempt) {
          size_t to = (i + attempt) % 3;
          if (stopping && static_cast<int>(to) == binder) to = (to + 1) % 3;
          last_error[i] = Bind(R(to), pods[i], "n1");
          if (last_error[i].empty()) break;
          ++failures;
          // kube-scheduler backs a failed pod off (1 s at first).
          std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  stopping = true;
  auto stopped = R(binder).Stop();
  for (auto& t : threads) t.join();
  ASSERT_TRUE(stopped.ok());
  EXPECT_EQ(*stopped, 0);
  size_t bound = 0;
  UsedPerCard(&bound);
  EXPECT_EQ(bound, pods.size());
  for (size_t i = 0; i < pods.size(); ++i) {
    EXPECT_EQ(last_error[i], "") << "pod " << i;
  }
  ExpectNoOverCommit(16);
  EXPECT_NE(R(binder).output().find("released Lease"), std::string::npos)
      << R(binder).output();
  RecordProperty("bind_failures_during_sigterm", failures.load());
}

TEST_F(HaTest, BinderCutOffFromTheLeaseStopsBinding) {
  CreateNode(SharingNode("n1", 1, 16));
  for (size_t i = 0; i < 2; ++i) Start(i);
  const int binder = WaitForBinder();
  // Lease requests fail from now on (Bindings would still go through).
  lease_refusal_ = 503;
  ASSERT_TRUE(testing::Eventually([&] { return Binder() < 0; }));
  json a = CreatePod("a", 4);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_NE(Bind(R(i), a, "n1"), "");
  }
  auto pod = api_.Get("/api/v1/namespaces/default/pods/a");
  EXPECT_FALSE(json::parse(pod.body)["spec"].contains("nodeName"));
  // Reconnected: one replica binds again.
  lease_refusal_ = 0;
  WaitForBinder();
  EXPECT_EQ(Bind(R(1 - binder), a, "n1"), "");
  ExpectNoOverCommit(16);
}

}  // namespace
}  // namespace gcushare
