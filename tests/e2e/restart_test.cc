// Each piece killed (SIGKILL, as a crash) and restarted mid-run: pods
// placed before keep their cards, pods created afterwards are placed,
// nothing is allocated twice and the extender's view matches the pods.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

#include "tests/e2e/checks.h"
#include "tests/e2e/local_cluster.h"
#include "tests/e2e/pods.h"
#include "tests/e2e/scenario.h"

namespace gcushare::e2e {
namespace {

class RestartTest : public ::testing::TestWithParam<Piece> {};

TEST_P(RestartTest, NothingLostNothingAllocatedTwice) {
  auto started = LocalCluster::Start({});
  ASSERT_TRUE(started.ok()) << started.status();
  LocalCluster& cluster = **started;
  ASSERT_TRUE(RunSharedPod(cluster, "before-a", 4).ok());
  ASSERT_TRUE(RunSharedPod(cluster, "before-b", 8).ok());
  auto before = cluster.ExtenderGet("/inspect/node-1");
  ASSERT_TRUE(before.ok()) << before.status();

  // A pod created while the piece is down is placed once it is back.
  // Not while the API server is down (nothing can be created) nor the
  // device plugin (kubelet would fail the pod's admission, as it does).
  const bool create_while_down =
      GetParam() != Piece::kApiserver && GetParam() != Piece::kDevicePlugin;
  cluster.component(GetParam()).Kill();
  if (create_while_down) {
    ASSERT_TRUE(cluster.CreatePod(MakeSharedPod("during", 6)).ok());
  }
  Status restarted = cluster.Restart(GetParam());
  ASSERT_TRUE(restarted.ok()) << restarted;
  if (!create_while_down) {
    ASSERT_TRUE(cluster.CreatePod(MakeSharedPod("during", 6)).ok());
  }

  auto during = cluster.WaitForContainer("default/during", "main",
                                         std::chrono::seconds(120));
  ASSERT_TRUE(during.ok()) << during.status();
  auto after =
      RunSharedPod(cluster, "after", 5, false, std::chrono::seconds(120));
  ASSERT_TRUE(after.ok()) << after.status();

  auto placement = CheckPlacement(cluster, 16);
  ASSERT_TRUE(placement.ok()) << placement.status();
  EXPECT_EQ(placement->pods, 4);
  int64_t used = 0;
  for (const auto& [card, units] : placement->used_units) used += units;
  EXPECT_EQ(used, 4 + 8 + 6 + 5);
  auto inspect = cluster.ExtenderGet("/inspect/node-1");
  ASSERT_TRUE(inspect.ok()) << inspect.status();
  nlohmann::json view = nlohmann::json::parse(inspect->second, nullptr, false);
  EXPECT_EQ(view["nodes"][0]["usedGCU"], used) << inspect->second;
  // Each pod's container was created exactly once (a restarted runtime or
  // kubelet does not hand out a card again).
  std::map<std::string, int> creations;
  for (const CreatedContainer& c : cluster.CreatedContainers()) {
    if (c.error.empty()) ++creations[c.pod + "/" + c.container];
  }
  for (const auto& [key, count] : creations) {
    EXPECT_EQ(count, 1) << key;
  }
  EXPECT_TRUE(CheckLogFiles(cluster).ok());
  Status stopped = cluster.Stop();  // Fails on any seccomp denial too.
  EXPECT_TRUE(stopped.ok()) << stopped;
}

INSTANTIATE_TEST_SUITE_P(
    EachPiece, RestartTest,
    ::testing::Values(Piece::kExtender, Piece::kDevicePlugin, Piece::kNriPlugin,
                      Piece::kKubelet, Piece::kApiserver, Piece::kNriRuntime,
                      Piece::kScheduler),
    [](const ::testing::TestParamInfo<Piece>& info) {
      std::string name = PieceName(info.param);
      name.erase(std::remove(name.begin(), name.end(), '-'), name.end());
      return name;
    });

}  // namespace
}  // namespace gcushare::e2e
