#include "binpack/replay.h"

#include <gtest/gtest.h>

#include "binpack/trace.h"

namespace gcushare::binpack {
namespace {

constexpr char kNodes[] =
    "sn,cpu_milli,memory_mib,gpu,model\n"
    "n0,64000,262144,2,T4\n"
    "n1,64000,262144,2,G2\n";

TEST(TraceTest, ReadsNodesAndTasks) {
  auto nodes = ParseNodeList(kNodes, "nodes.csv");
  ASSERT_TRUE(nodes.ok()) << nodes.status();
  ASSERT_EQ(nodes->size(), 2u);
  EXPECT_EQ((*nodes)[1].model, "G2");
  EXPECT_EQ((*nodes)[1].gpus, 2u);
  auto tasks = ParseTaskList(
      "name,cpu_milli,memory_mib,num_gpu,gpu_milli,qos\n"
      "p0,1000,1024,1,470,LS\n"
      "p1,1000,1024,0,0,BE\n",
      "pods.csv");
  ASSERT_TRUE(tasks.ok()) << tasks.status();
  EXPECT_TRUE((*tasks)[0].Sharing());
  EXPECT_FALSE((*tasks)[1].Sharing() || (*tasks)[1].Whole());
}

TEST(TraceTest, BadRowsNameFileAndLine) {
  auto tasks = ParseTaskList(
      "cpu_milli,memory_mib,num_gpu,gpu_milli\n1000,1024,1,470\n1,1,2,500\n",
      "pods.csv");
  ASSERT_FALSE(tasks.ok());
  EXPECT_EQ(tasks.status().message(),
            "pods.csv:3: a multi-GPU task shares cards");
  auto bad = ParseTaskList("cpu_milli,memory_mib,num_gpu\n", "pods.csv");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("no column \"gpu_milli\""),
            std::string::npos);
  auto nodes = ParseNodeList("sn,cpu_milli,memory_mib,gpu,model\nn,x,1,1,T4\n",
                             "nodes.csv");
  ASSERT_FALSE(nodes.ok());
  EXPECT_NE(nodes.status().message().find("nodes.csv:2: cpu_milli"),
            std::string::npos);
}

TEST(ReplayTest, WholeCardsFillTheClusterUnderEveryPolicy) {
  auto nodes = ParseNodeList(kNodes, "nodes.csv");
  ASSERT_TRUE(nodes.ok());
  // Four one-card tasks fill the four 16 GiB cards exactly.
  std::vector<TraceTask> tasks(4, TraceTask{1000, 1024, 1, 1000});
  ReplayConfig config;
  config.inflation = 1.0;
  for (ReplayPolicy policy :
       {ReplayPolicy::kDefault, ReplayPolicy::kDefaultGcuOnly,
        ReplayPolicy::kDefaultCards, ReplayPolicy::kBestFit, ReplayPolicy::kFgd,
        ReplayPolicy::kFgdCards, ReplayPolicy::kFgdGcu}) {
    auto result = Replay(*nodes, tasks, config, policy, 42);
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_EQ(result->unallocated_pct, 0) << ReplayPolicyName(policy);
    EXPECT_EQ(result->dropped_pct, 0);
    EXPECT_EQ(result->tasks, 4u);
  }
}

TEST(ReplayTest, StrandedMemoryAndDropsAreCounted) {
  auto nodes = ParseNodeList(kNodes, "nodes.csv");
  ASSERT_TRUE(nodes.ok());
  // 810 milli of a 16 GiB card is 13 GiB: one per card, 3 GiB stranded on
  // each; a fifth such task finds no card and is dropped.
  std::vector<TraceTask> tasks(5, TraceTask{1000, 1024, 1, 810});
  ReplayConfig config;
  config.inflation = 1.0;
  auto result = Replay(*nodes, tasks, config, ReplayPolicy::kDefault, 42);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->tasks, 5u);  // 65 GiB arrived >= 64.
  EXPECT_DOUBLE_EQ(result->unallocated_pct, 100.0 * 12 / 64);
  EXPECT_DOUBLE_EQ(result->dropped_pct, 100.0 * 13 / 65);
}

TEST(ReplayTest, FgdKeepsCpuForTheCardTasks) {
  // Two one-card nodes with 16 CPUs and a card-less node with 64. A task of
  // 12 CPUs and no card, and two of 12 CPUs and a whole card: fgd puts the
  // CPU task where it strands no card (the card-less node), so both card
  // tasks fit; bestfit puts it on a card node (less free capacity left
  // there) whenever it arrives before a card task, stranding that card.
  auto nodes = ParseNodeList(
      "sn,cpu_milli,memory_mib,gpu,model\n"
      "n0,16000,65536,1,T4\n"
      "n1,16000,65536,1,T4\n"
      "n2,64000,65536,0,\n",
      "nodes.csv");
  ASSERT_TRUE(nodes.ok()) << nodes.status();
  const std::vector<TraceTask> tasks = {
      {12000, 1024, 0, 0}, {12000, 1024, 1, 1000}, {12000, 1024, 1, 1000}};
  ReplayConfig config;
  config.inflation = 1.0;
  int bestfit_strands = 0;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    auto fgd = Replay(*nodes, tasks, config, ReplayPolicy::kFgd, seed);
    ASSERT_TRUE(fgd.ok()) << fgd.status();
    EXPECT_EQ(fgd->unallocated_pct, 0) << seed;
    EXPECT_EQ(fgd->dropped_pct, 0) << seed;
    auto bestfit = Replay(*nodes, tasks, config, ReplayPolicy::kBestFit, seed);
    ASSERT_TRUE(bestfit.ok()) << bestfit.status();
    if (bestfit->unallocated_pct > 0) ++bestfit_strands;
  }
  EXPECT_GT(bestfit_strands, 0);
}

TEST(ReplayTest, DefaultRanksTheTasksWithoutCards) {
  // FgdKeepsCpuForTheCardTasks's cluster and tasks: default, as shipped
  // with the plain-pod entry, puts the CPU task on the card-less node
  // (PlainRank: nodes without free card memory first), so both card tasks
  // fit whatever the order; default-gcu-only leaves it to BestFit's node
  // rule, which strands a card whenever the CPU task comes first.
  auto nodes = ParseNodeList(
      "sn,cpu_milli,memory_mib,gpu,model\n"
      "n0,16000,65536,1,T4\n"
      "n1,16000,65536,1,T4\n"
      "n2,64000,65536,0,\n",
      "nodes.csv");
  ASSERT_TRUE(nodes.ok()) << nodes.status();
  const std::vector<TraceTask> tasks = {
      {12000, 1024, 0, 0}, {12000, 1024, 1, 1000}, {12000, 1024, 1, 1000}};
  ReplayConfig config;
  config.inflation = 1.0;
  int gcu_only_strands = 0;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    auto shipped = Replay(*nodes, tasks, config, ReplayPolicy::kDefault, seed);
    ASSERT_TRUE(shipped.ok()) << shipped.status();
    EXPECT_EQ(shipped->unallocated_pct, 0) << seed;
    EXPECT_EQ(shipped->dropped_pct, 0) << seed;
    auto gcu_only =
        Replay(*nodes, tasks, config, ReplayPolicy::kDefaultGcuOnly, seed);
    ASSERT_TRUE(gcu_only.ok()) << gcu_only.status();
    if (gcu_only->unallocated_pct > 0) ++gcu_only_strands;
  }
  EXPECT_GT(gcu_only_strands, 0);
}

TEST(ReplayTest, UnknownModelsAndPoliciesAreErrors) {
  auto nodes = ParseNodeList("sn,cpu_milli,memory_mib,gpu,model\nn,1,1,1,X9\n",
                             "nodes.csv");
  ASSERT_TRUE(nodes.ok());
  std::vector<TraceTask> tasks(1, TraceTask{1, 1, 1, 1000});
  auto result = Replay(*nodes, tasks, {}, ReplayPolicy::kDefault, 1);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("\"X9\""), std::string::npos);
  EXPECT_FALSE(ParseReplayPolicy("worstfit").ok());
  EXPECT_EQ(*ParseReplayPolicy("fgd-cards"), ReplayPolicy::kFgdCards);
  EXPECT_EQ(ReplayPolicyName(ReplayPolicy::kFgdGcu), "fgd-gcu");
  // The shipped policy is named default (--json); its GCU-only variant
  // has its own name.
  EXPECT_EQ(ReplayPolicyName(ReplayPolicy::kDefault), "default");
  EXPECT_EQ(*ParseReplayPolicy("default-gcu-only"),
            ReplayPolicy::kDefaultGcuOnly);
  EXPECT_FALSE(ParseReplayPolicy("default-all").ok());
}

}  // namespace
}  // namespace gcushare::binpack
