// The whole flow, every piece its own process: the vendor manual's
// scenario, whole cards beside shared ones, deleted pods freeing memory.
#include "tests/e2e/scenario.h"

#include <gtest/gtest.h>

#include "tests/e2e/checks.h"
#include "tests/e2e/local_cluster.h"
#include "tests/e2e/pods.h"

namespace gcushare::e2e {
namespace {

constexpr int64_t kCardUnits = 16;  // configs/fake-cards.yaml at unit 1.

class ScenarioTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto started = LocalCluster::Start({});
    ASSERT_TRUE(started.ok()) << started.status();
    cluster_ = std::move(*started);
  }
  void TearDown() override {
    if (!cluster_) return;
    Status stopped = cluster_->Stop();  // Fails on any seccomp denial too.
    EXPECT_TRUE(stopped.ok()) << stopped;
  }

  nlohmann::json InspectNode() {
    auto answer = cluster_->ExtenderGet("/inspect/node-1");
    EXPECT_TRUE(answer.ok()) << answer.status();
    if (!answer.ok()) return nullptr;
    EXPECT_EQ(answer->first, 200) << answer->second;
    // The one node of {"nodes":[...]}.
    return nlohmann::json::parse(answer->second, nullptr, false)["nodes"][0];
  }

  std::unique_ptr<LocalCluster> cluster_;
};

TEST_F(ScenarioTest, VendorManualScenario) {
  auto outcomes = PlayVendorScenario(*cluster_);
  ASSERT_TRUE(outcomes.ok()) << outcomes.status();
  ASSERT_EQ(outcomes->size(), 4u);
  const PodOutcome& four = (*outcomes)[0];
  const PodOutcome& eight = (*outcomes)[1];
  const PodOutcome& twelve = (*outcomes)[2];
  const PodOutcome& twenty = (*outcomes)[3];
  EXPECT_EQ(four.node, "node-1");
  EXPECT_EQ(four.card, "0");
  EXPECT_EQ(eight.card, "0");
  EXPECT_NE(twelve.card, "0");
  EXPECT_FALSE(twelve.card.empty());
  EXPECT_TRUE(twenty.node.empty());
  EXPECT_NE(
      twenty.pending_reason.find("insufficient GCU Memory in one gcu device"),
      std::string::npos)
      << twenty.pending_reason;

  // Each container got its own card only, with the contract's env.
  for (const PodOutcome* pod : {&four, &eight, &twelve}) {
    ASSERT_EQ(pod->devices.size(), 1u) << pod->name;
    EXPECT_EQ(pod->devices[0].rfind("/dev/gcu" + pod->card + " c ", 0), 0u)
        << pod->devices[0];
    EXPECT_EQ(pod->env.at("ENFLAME_VISIBLE_DEVICES"), pod->card);
    EXPECT_EQ(pod->env.at("GCUSHARE_MEMORY_LIMIT_MB"),
              std::to_string(pod->request_units * 1024));
    EXPECT_EQ(pod->env.at("GCUSHARE_MEMORY_TOTAL_MB"), "16384");
    EXPECT_EQ(pod->env.at("GCUSHARE_MEMORY_UNIT"), "1");
  }

  nlohmann::json inspect = InspectNode();
  EXPECT_EQ(inspect["usedGCU"], 24) << inspect.dump();
  EXPECT_EQ(inspect["totalGCU"], 128) << inspect.dump();
  EXPECT_EQ(inspect["devices"][0]["usedGCU"], 12) << inspect.dump();
  EXPECT_EQ(inspect["devices"][0]["pods"].size(), 2u) << inspect.dump();

  // kube-scheduler's event for the pod that does not fit.
  auto events = cluster_->PodEvents("default", "gcu-pod-4");
  ASSERT_TRUE(events.ok()) << events.status();
  bool failed_scheduling = false;
  for (const auto& event : *events) {
    if (event.value("reason", "") == "FailedScheduling") {
      failed_scheduling = true;
    }
  }
  EXPECT_TRUE(failed_scheduling);
  auto placement = CheckPlacement(*cluster_, kCardUnits);
  ASSERT_TRUE(placement.ok()) << placement.status();
  EXPECT_EQ(placement->pods, 3);
  EXPECT_TRUE(CheckLogFiles(*cluster_).ok()) << CheckLogFiles(*cluster_);
}

TEST_F(ScenarioTest, WholeCardPodBesideSharedPodsNeverSharesACard) {
  ASSERT_TRUE(RunSharedPod(*cluster_, "shared-a", 4).ok());
  ASSERT_TRUE(cluster_->CreatePod(MakeWholeCardPod("whole", 2)).ok());
  auto whole = cluster_->WaitForContainer("default/whole", "main");
  ASSERT_TRUE(whole.ok()) << whole.status();
  ASSERT_TRUE(RunSharedPod(*cluster_, "shared-b", 10).ok());
  ASSERT_TRUE(RunSharedPod(*cluster_, "shared-c", 10).ok());

  auto placement = CheckPlacement(*cluster_, kCardUnits);
  ASSERT_TRUE(placement.ok()) << placement.status();
  EXPECT_EQ(placement->pods, 4);
  EXPECT_EQ(placement->whole.size(), 2u);
  PodOutcome devices;
  ReadContainerSpec(whole->spec, &devices);
  EXPECT_EQ(devices.devices.size(), 2u);
  EXPECT_EQ(devices.env.count("GCUSHARE_MEMORY_LIMIT_MB"), 0u);
}

TEST_F(ScenarioTest, DeletedPodsFreeTheirMemory) {
  // Fill card 0 and more, then delete: the memory is free for a pod that
  // needs a whole card's worth.
  for (int i = 0; i < 8; ++i) {
    ASSERT_TRUE(RunSharedPod(*cluster_, "big-" + std::to_string(i), 16).ok());
  }
  auto pending =
      RunSharedPod(*cluster_, "waiting", 16, /*expect_pending=*/true);
  ASSERT_TRUE(pending.ok()) << pending.status();
  EXPECT_EQ(InspectNode()["usedGCU"], 128);

  ASSERT_TRUE(cluster_->DeletePod("default", "big-3").ok());
  ASSERT_TRUE(cluster_->DeletePod("default", "big-5").ok());
  // The scheduler retries the pending pod once memory is free.
  auto placed = cluster_->WaitForContainer("default/waiting", "main");
  ASSERT_TRUE(placed.ok()) << placed.status();
  nlohmann::json inspect = InspectNode();
  EXPECT_EQ(inspect["usedGCU"], 112) << inspect.dump();
  auto placement = CheckPlacement(*cluster_, kCardUnits);
  ASSERT_TRUE(placement.ok()) << placement.status();
  EXPECT_EQ(placement->pods, 7);
}

}  // namespace
}  // namespace gcushare::e2e
