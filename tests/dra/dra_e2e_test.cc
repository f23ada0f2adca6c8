// gcushare-dra-driver end to end: the real driver binary with the stand-in
// API server (resource.k8s.io/v1), kubelet (registration, Prepare and
// Unprepare over gRPC, CDI applied as containerd applies it) and scheduler
// (KEP-5075 consumable capacity, KEP-5004 extended resources).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <map>
#include <mutex>
#include <thread>
#include <utility>

#include "testing/files.h"
#include "tests/dra/dra_cluster.h"

namespace gcushare::testing {
namespace {

using nlohmann::json;

// The card index a container sees, from its one /dev/gcu node.
int CardOf(const peers::dra_kubelet::ContainerRun& run) {
  int card = -1;
  int nodes = 0;
  for (const auto& device : run.view.devices) {
    if (device.path.rfind("/dev/gcu", 0) == 0) {
      card = std::stoi(device.path.substr(8));
      ++nodes;
    }
  }
  return nodes == 1 ? card : -1;
}

std::string Env(const peers::dra_kubelet::ContainerRun& run,
                const std::string& name) {
  return run.view.Env(name).value_or("<unset>");
}

size_t CdiSpecFiles(const std::string& dir) {
  size_t count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().filename().string().rfind("k8s.gcu.enflame.com-gcu_", 0) ==
        0) {
      ++count;
    }
  }
  return count;
}

class DraE2eTest : public ::testing::Test {
 protected:
  void StartCluster(DraClusterOptions options = {}) {
    cluster_ = std::make_unique<DraCluster>(std::move(options));
    Status started = cluster_->Start();
    ASSERT_TRUE(started.ok()) << started;
  }
  std::unique_ptr<DraCluster> cluster_;
};

// The vendor manual's scenario in DRA form: claims of 4, 8, 12 GiB on two
// 16 GiB cards fit; 20 GiB stays pending with the scheduler's reason; each
// container sees exactly its card and its limit.
TEST_F(DraE2eTest, VendorScenario) {
  ASSERT_NO_FATAL_FAILURE(StartCluster());
  DraCluster& c = *cluster_;
  for (int gib : {4, 8, 12, 20}) {
    const std::string name = "share-" + std::to_string(gib);
    ASSERT_TRUE(c.CreateClaimTemplate(name, std::to_string(gib) + "Gi").ok());
    ASSERT_TRUE(
        c.CreatePodWithTemplate("pod-" + std::to_string(gib), name).ok());
  }
  auto outcomes = c.SchedulePending();
  ASSERT_TRUE(outcomes.ok()) << outcomes.status();
  std::map<std::string, dra_scheduler::PodOutcome> by_pod;
  for (const auto& o : *outcomes) by_pod[o.pod] = o;
  for (int gib : {4, 8, 12}) {
    EXPECT_TRUE(by_pod["demo/pod-" + std::to_string(gib)].bound) << gib;
  }
  const auto& big = by_pod["demo/pod-20"];
  EXPECT_FALSE(big.bound);
  EXPECT_EQ(big.reason, "Unschedulable");
  EXPECT_NE(big.message.find("cannot allocate all claims"), std::string::npos)
      << big.message;

  std::map<int, uint64_t> mib_per_card;
  for (int gib : {4, 8, 12}) {
    auto run = c.RunPod("pod-" + std::to_string(gib));
    ASSERT_TRUE(run.ok()) << run.status();
    ASSERT_EQ(run->containers.size(), 1u);
    const auto& main = run->containers[0];
    const int card = CardOf(main);
    ASSERT_GE(card, 0) << "exactly one /dev/gcu node";
    EXPECT_EQ(Env(main, "ENFLAME_VISIBLE_DEVICES"), std::to_string(card));
    EXPECT_EQ(Env(main, "GCUSHARE_MEMORY_LIMIT_MB"),
              std::to_string(gib * 1024));
    EXPECT_EQ(Env(main, "GCUSHARE_MEMORY_TOTAL_MB"), "16384");
    EXPECT_EQ(Env(main, "GCUSHARE_MEMORY_UNIT"), "1");
    mib_per_card[card] += static_cast<uint64_t>(gib) * 1024;
    // The claim carries the scheduler's share and consumed capacity.
    auto claim = c.GetClaimOf("pod-" + std::to_string(gib));
    ASSERT_TRUE(claim.ok());
    const json result =
        (*claim)["status"]["allocation"]["devices"]["results"][0];
    EXPECT_TRUE(result.contains("shareID"));
    EXPECT_EQ(result["consumedCapacity"]["memory"], std::to_string(gib) + "Gi");
  }
  for (const auto& [card, mib] : mib_per_card) EXPECT_LE(mib, 16384u) << card;
  EXPECT_EQ(CdiSpecFiles(c.cdi_dir()), 3u);

  // Stopping the pods unprepares their claims: the specs are gone.
  for (int gib : {4, 8, 12}) {
    ASSERT_TRUE(c.StopPod("pod-" + std::to_string(gib)).ok());
  }
  EXPECT_EQ(CdiSpecFiles(c.cdi_dir()), 0u);
}

// A claim asking nothing takes the whole card; a pod asking
// enflame.com/gcu-count: 2 gets two whole cards through the chart's
// whole-gcu.enflame.com class (KEP-5004), and sees both in one variable.
TEST_F(DraE2eTest, WholeCards) {
  ASSERT_NO_FATAL_FAILURE(StartCluster({.cards = 3}));
  DraCluster& c = *cluster_;
  ASSERT_TRUE(c.CreateClaimTemplate("whole", "").ok());
  ASSERT_TRUE(c.CreatePodWithTemplate("one-card", "whole").ok());
  ASSERT_TRUE(c.CreatePodWithCardCount("two-cards", 2).ok());
  auto outcomes = c.SchedulePending();
  ASSERT_TRUE(outcomes.ok()) << outcomes.status();
  ASSERT_EQ(outcomes->size(), 2u);
  EXPECT_TRUE((*outcomes)[0].bound) << (*outcomes)[0].message;
  EXPECT_TRUE((*outcomes)[1].bound) << (*outcomes)[1].message;
  // The three cards are all taken now.
  ASSERT_TRUE(c.CreatePodWithCardCount("no-room", 1).ok());
  auto later = c.SchedulePending();
  ASSERT_TRUE(later.ok()) << later.status();
  ASSERT_EQ(later->size(), 1u);
  EXPECT_FALSE((*later)[0].bound);

  auto one = c.RunPod("one-card");
  ASSERT_TRUE(one.ok()) << one.status();
  EXPECT_GE(CardOf(one->containers[0]), 0);
  EXPECT_EQ(Env(one->containers[0], "GCUSHARE_MEMORY_TOTAL_MB"), "16384");
  auto two = c.RunPod("two-cards");
  ASSERT_TRUE(two.ok()) << two.status();

  const auto& main = two->containers[0];
  int gcu_nodes = 0;
  for (const auto& d : main.view.devices) {
    gcu_nodes += d.path.rfind("/dev/gcu", 0) == 0 ? 1 : 0;
  }
  EXPECT_EQ(gcu_nodes, 2);
  const std::string visible = Env(main, "ENFLAME_VISIBLE_DEVICES");
  EXPECT_EQ(visible.size(), 3u) << visible;  // "i,j"
  EXPECT_EQ(Env(main, "GCUSHARE_MEMORY_LIMIT_MB"), "<unset>");
}

// A driver restart (SIGTERM, then SIGKILL) loses nothing: the kubelet
// registers the new process, and Unprepare of claims the old one prepared
// works from the checkpoint.
TEST_F(DraE2eTest, DriverRestartKeepsPreparedClaims) {
  ASSERT_NO_FATAL_FAILURE(StartCluster());
  DraCluster& c = *cluster_;
  ASSERT_TRUE(c.CreateClaimTemplate("share-4", "4Gi").ok());
  for (const char* pod : {"a", "b"}) {
    ASSERT_TRUE(c.CreatePodWithTemplate(pod, "share-4").ok());
  }
  ASSERT_TRUE(c.SchedulePending().ok());
  for (const char* pod : {"a", "b"}) {
    auto run = c.RunPod(pod);
    ASSERT_TRUE(run.ok()) << run.status();
  }
  ASSERT_EQ(CdiSpecFiles(c.cdi_dir()), 2u);

  for (bool kill : {false, true}) {
    auto stopped = c.StopDriver(kill);
    ASSERT_TRUE(stopped.ok()) << stopped.status();
    if (!kill) {
      EXPECT_EQ(stopped->exit_code, 0) << stopped->out;
    }
    ASSERT_TRUE(c.StartDriver().ok());
    ASSERT_TRUE(c.WaitFor([&] {
      for (const auto& p : c.kubelet().View().plugins) {
        if (p.connected) return true;
      }
      return false;
    }));
  }
  // Prepare again (the kubelet re-prepares after its own restart): same
  // answer, nothing rewritten twice.
  auto again = c.RunPod("a");
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(Env(again->containers[0], "GCUSHARE_MEMORY_LIMIT_MB"), "4096");
  ASSERT_TRUE(c.StopPod("a").ok());
  ASSERT_TRUE(c.StopPod("b").ok());
  EXPECT_EQ(CdiSpecFiles(c.cdi_dir()), 0u);
}

// A kubelet restart wipes the node's slices; the driver re-publishes them.
TEST_F(DraE2eTest, KubeletRestartWipesAndSlicesComeBack) {
  ASSERT_NO_FATAL_FAILURE(StartCluster());
  DraCluster& c = *cluster_;
  auto before = c.Slices();
  ASSERT_TRUE(before.ok());
  ASSERT_FALSE(before->empty());
  const std::string old_uid = (*before)[0]["metadata"]["uid"];
  ASSERT_TRUE(c.RestartKubelet().ok());
  // The start-up wipe (retried on the kubelet's clock if it failed).
  ASSERT_TRUE(c.WaitFor([&] {
    c.kubelet_clock().Advance(std::chrono::seconds(1));
    c.kubelet().RunDueTimers();
    return !c.kubelet().View().wipes.empty();
  })) << "the restarted kubelet did not wipe the node's slices";
  Status back = c.WaitForSlices(2);
  EXPECT_TRUE(back.ok()) << back;
  auto after = c.Slices();
  ASSERT_TRUE(after.ok());
  ASSERT_FALSE(after->empty());
  EXPECT_NE((*after)[0]["metadata"]["uid"], old_uid)
      << "the slices were re-created, not left in place";
}

// The kubelet loses the driver for 30 s: it deletes the driver's slices;
// the driver, back, publishes them again.
TEST_F(DraE2eTest, SlicesWipedAfterTheDriverIsGoneComeBack) {
  ASSERT_NO_FATAL_FAILURE(StartCluster());
  DraCluster& c = *cluster_;
  ASSERT_TRUE(c.StopDriver(/*kill=*/true).ok());
  ASSERT_TRUE(c.WaitFor([&] {
    for (const auto& p : c.kubelet().View().plugins) {
      if (p.connected) return false;
    }
    return c.kubelet().WipePending("gcu.enflame.com");
  }));
  c.kubelet_clock().Advance(std::chrono::seconds(31));
  c.kubelet().RunDueTimers();
  ASSERT_TRUE(c.WaitFor([&] {
    auto slices = c.Slices();
    return slices.ok() && slices->empty();
  }));
  ASSERT_TRUE(c.StartDriver().ok());
  Status back = c.WaitForSlices(2);
  EXPECT_TRUE(back.ok()) << back;
}

// A claim deleted while prepared: Unprepare still works (from the
// checkpoint) and removes its CDI spec.
TEST_F(DraE2eTest, ClaimDeletedWhilePrepared) {
  ASSERT_NO_FATAL_FAILURE(StartCluster());
  DraCluster& c = *cluster_;
  ASSERT_TRUE(c.CreateClaimTemplate("share-4", "4Gi").ok());
  ASSERT_TRUE(c.CreatePodWithTemplate("p", "share-4").ok());
  ASSERT_TRUE(c.SchedulePending().ok());
  ASSERT_TRUE(c.RunPod("p").ok());
  auto claim = c.GetClaimOf("p");
  ASSERT_TRUE(claim.ok());
  const std::string name = (*claim)["metadata"]["name"];
  const std::string uid = (*claim)["metadata"]["uid"];
  ASSERT_TRUE(c.client()
                  .Patch(kube::Resource::ResourceClaims(), "demo", name,
                         kube::PatchType::kMerge,
                         {{"metadata", {{"finalizers", nullptr}}}}, "")
                  .ok());
  ASSERT_TRUE(c.client()
                  .Delete(kube::Resource::ResourceClaims(), "demo", name, {})
                  .ok());
  auto answers =
      c.kubelet().UnprepareClaims("gcu.enflame.com", {{"demo", uid, name}});
  ASSERT_TRUE(answers.ok()) << answers.status();
  EXPECT_EQ(answers->at(uid), "");
  EXPECT_EQ(CdiSpecFiles(c.cdi_dir()), 0u);
  // Twice: still success.
  auto twice =
      c.kubelet().UnprepareClaims("gcu.enflame.com", {{"demo", uid, name}});
  ASSERT_TRUE(twice.ok());
  EXPECT_EQ(twice->at(uid), "");
}

// A corrupt checkpoint is refused clearly and kept aside (nothing lost);
// the driver starts, and Unprepare of a claim it no longer knows still
// removes that claim's spec.
TEST_F(DraE2eTest, CorruptCheckpointIsKeptAside) {
  ASSERT_NO_FATAL_FAILURE(StartCluster());
  DraCluster& c = *cluster_;
  ASSERT_TRUE(c.CreateClaimTemplate("share-4", "4Gi").ok());
  ASSERT_TRUE(c.CreatePodWithTemplate("p", "share-4").ok());
  ASSERT_TRUE(c.SchedulePending().ok());
  ASSERT_TRUE(c.RunPod("p").ok());
  ASSERT_TRUE(c.StopDriver().ok());
  WriteFileOrDie(c.checkpoint_path(), "{\"version\": 1, \"claims\": {tor");
  ASSERT_TRUE(c.StartDriver().ok());
  std::string kept_as;
  for (const auto& entry : std::filesystem::directory_iterator(
           std::filesystem::path(c.checkpoint_path()).parent_path())) {
    if (entry.path().filename().string().find("checkpoint.json.corrupt-") ==
            0 &&
        ReadFileOrEmpty(entry.path().string()).find("{tor") !=
            std::string::npos) {
      kept_as = entry.path().string();
    }
  }
  ASSERT_FALSE(kept_as.empty()) << "the corrupt file is kept aside, unchanged";
  // Said clearly: which file, and where it went.
  const std::string& log = c.driver().output();
  EXPECT_NE(log.find("is corrupt"), std::string::npos) << log;
  EXPECT_NE(log.find(kept_as), std::string::npos) << log;
  ASSERT_TRUE(c.WaitFor([&] {
    for (const auto& p : c.kubelet().View().plugins) {
      if (p.connected) return true;
    }
    return false;
  }));
  ASSERT_TRUE(c.StopPod("p").ok());
  EXPECT_EQ(CdiSpecFiles(c.cdi_dir()), 0u);
}

// 64 claims prepared concurrently on four 16 GiB cards (1 GiB each, 16
// more pending): every card holds at most its memory.
TEST_F(DraE2eTest, SixtyFourConcurrentClaims) {
  ASSERT_NO_FATAL_FAILURE(StartCluster({.cards = 4}));
  DraCluster& c = *cluster_;
  ASSERT_TRUE(c.CreateClaimTemplate("share-1", "1Gi").ok());
  for (int i = 0; i < 80; ++i) {
    ASSERT_TRUE(
        c.CreatePodWithTemplate("p" + std::to_string(i), "share-1").ok());
  }
  auto outcomes = c.SchedulePending();
  ASSERT_TRUE(outcomes.ok()) << outcomes.status();
  std::vector<std::string> bound;
  for (const auto& o : *outcomes) {
    if (o.bound) bound.push_back(o.pod.substr(5));  // "demo/"
  }
  ASSERT_EQ(bound.size(), 64u);
  std::mutex mu;
  std::map<int, int> per_card;
  std::vector<std::string> errors;
  std::vector<std::thread> threads;
  threads.reserve(8);
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (size_t i = t; i < bound.size(); i += 8) {
        auto run = c.RunPod(bound[i]);
        std::lock_guard<std::mutex> lock(mu);
        if (!run.ok()) {
          errors.push_back(run.status().ToString());
          continue;
        }
        per_card[CardOf(run->containers[0])]++;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_TRUE(errors.empty()) << errors.front();
  int total = 0;
  for (const auto& [card, shares] : per_card) {
    EXPECT_GE(card, 0);
    EXPECT_LE(shares, 16) << "card " << card << " over its memory";
    total += shares;
  }
  EXPECT_EQ(total, 64);
  EXPECT_EQ(CdiSpecFiles(c.cdi_dir()), 64u);
}

// With kube-apiserver's DRAConsumableCapacity gate off, the server drops
// the sharing fields: the driver says so (a Warning Event on the Node) and
// publishes whole cards; a claim's memory request is dropped too, so each
// claim gets a whole card.
TEST_F(DraE2eTest, ConsumableCapacityOffMeansWholeCards) {
  DraClusterOptions options;
  options.consumable_capacity_gate = false;
  ASSERT_NO_FATAL_FAILURE(StartCluster(options));
  DraCluster& c = *cluster_;
  ASSERT_TRUE(c.WaitFor([&] {
    auto events = c.NodeEvents();
    if (!events.ok()) return false;
    for (const json& e : *events) {
      if (e.value("reason", "") == "ConsumableCapacityDisabled") return true;
    }
    return false;
  })) << "no ConsumableCapacityDisabled event on the Node";
  auto slices = c.Slices();
  ASSERT_TRUE(slices.ok());
  for (const json& slice : *slices) {
    for (const json& device : slice["spec"]["devices"]) {
      EXPECT_FALSE(device.contains("allowMultipleAllocations"));
    }
  }
  ASSERT_TRUE(c.CreateClaimTemplate("share-4", "4Gi").ok());
  for (const char* pod : {"a", "b", "c"}) {
    ASSERT_TRUE(c.CreatePodWithTemplate(pod, "share-4").ok());
  }
  // The driver re-publishes its pool whole after the Event; kube-scheduler
  // retries unschedulable pods when ResourceSlices change, so the pods are
  // tried again until the pool has settled.
  std::map<std::string, std::string> bound_to;
  c.WaitFor([&] {
    auto outcomes = c.SchedulePending();
    if (outcomes.ok()) {
      for (const auto& o : *outcomes) {
        if (o.bound) bound_to[o.pod.substr(5)] = o.node;  // "demo/"
      }
    }
    return bound_to.size() >= 2;
  });
  EXPECT_EQ(bound_to.size(), 2u) << "one whole card per claim";
  auto last = c.SchedulePending();
  ASSERT_TRUE(last.ok());
  ASSERT_EQ(last->size(), 1u);
  EXPECT_FALSE((*last)[0].bound) << "no third card";
  ASSERT_EQ(bound_to.count("a") + bound_to.count("b") + bound_to.count("c"),
            2u);
  const std::string first = bound_to.begin()->first;
  auto run = c.RunPod(first);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(Env(run->containers[0], "GCUSHARE_MEMORY_LIMIT_MB"), "<unset>");
}

}  // namespace
}  // namespace gcushare::testing
