// 64 identical pods created at once on one node of 8 cards x 16 GiB: 2 GiB
// each fills the node exactly. Every pod is placed, no card is
// over-committed, and every container gets the card of its own pod's
// annotations (the race NRI closes: identical pods look alike to Allocate).
#include <gtest/gtest.h>

#include <string>

#include "tests/e2e/checks.h"
#include "tests/e2e/local_cluster.h"
#include "tests/e2e/pods.h"

namespace gcushare::e2e {
namespace {

TEST(ScaleTest, SixtyFourIdenticalPodsAtOnce) {
  auto started = LocalCluster::Start({});
  ASSERT_TRUE(started.ok()) << started.status();
  LocalCluster& cluster = **started;
  constexpr int kPods = 64;
  for (int i = 0; i < kPods; ++i) {
    ASSERT_TRUE(
        cluster.CreatePod(MakeSharedPod("same-" + std::to_string(i), 2)).ok());
  }
  for (int i = 0; i < kPods; ++i) {
    auto created = cluster.WaitForContainer("default/same-" + std::to_string(i),
                                            "main", std::chrono::seconds(180));
    ASSERT_TRUE(created.ok()) << created.status();
  }
  auto placement = CheckPlacement(cluster, 16);
  ASSERT_TRUE(placement.ok()) << placement.status();
  EXPECT_EQ(placement->pods, kPods);
  ASSERT_EQ(placement->used_units.size(), 8u);
  for (const auto& [card, used] : placement->used_units) {
    EXPECT_EQ(used, 16) << "card " << card;
  }
  // One more does not fit anywhere: kube-scheduler's own fit check already
  // sees the node's enflame.com/gcu-memory allocatable used up.
  ASSERT_TRUE(cluster.CreatePod(MakeSharedPod("one-more", 2)).ok());
  auto pending = cluster.WaitForPod(
      "default", "one-more",
      [](const nlohmann::json& pod) {
        const std::string text = pod.dump();
        return text.find("Insufficient enflame.com/gcu-memory") !=
                   std::string::npos ||
               text.find("insufficient GCU Memory in one gcu device") !=
                   std::string::npos;
      },
      "was reported unschedulable");
  EXPECT_TRUE(pending.ok()) << pending.status();
  Status stopped = cluster.Stop();  // Fails on any seccomp denial too.
  EXPECT_TRUE(stopped.ok()) << stopped;
}

}  // namespace
}  // namespace gcushare::e2e
