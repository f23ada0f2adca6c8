#include "extender/verdict_memo.h"

#include <gtest/gtest.h>

#include <array>
#include <memory>
#include <string>

#include "extender/card_cache.h"
#include "extender/testing/objects.h"
#include "placement/node_summary.h"
#include "placement/node_verdict.h"

namespace gcushare::extender {

using placement::CachedNode;
using placement::HostFit;
using placement::HostRankPenalty;
using placement::HostRequest;
using placement::Judge;
using placement::NodeVerdict;
using placement::NotSharingNodeReason;
using placement::Policy;
using placement::RequestHistory;
using placement::RequestMix;
using placement::SharedFitsNowhere;
using placement::WholeFitsNowhere;

namespace {

using testing::Assigned;
using testing::MemoryPod;
using testing::SharingNode;

contract::PodRequest Shared(uint64_t units) {
  contract::PodRequest request;
  request.memory_units = units;
  return request;
}

// The memo's verdict for `name`, and Judge()'s on the same state.
std::pair<NodeVerdict, NodeVerdict> Both(const CardCache& cache,
                                         VerdictMemo::Table& table,
                                         const contract::PodRequest& request,
                                         const RequestMix* mix,
                                         const std::string& name) {
  std::pair<NodeVerdict, NodeVerdict> both;
  cache.Visit({name}, [&](const std::string&, const CachedNode* node) {
    both.first = *table.Get(node);
    both.second = Judge(node, request, Policy::kBinpack, mix);
  });
  return both;
}

void ExpectSame(const std::pair<NodeVerdict, NodeVerdict>& both) {
  EXPECT_EQ(both.first.fits, both.second.fits);
  EXPECT_EQ(both.first.unresolvable, both.second.unresolvable);
  EXPECT_EQ(both.first.reason, both.second.reason);
  EXPECT_TRUE(both.first.placement.cards.empty());  // Not kept.
  EXPECT_EQ(both.first.placement.score, both.second.placement.score);
  EXPECT_EQ(both.first.placement.rank, both.second.placement.rank);
}

TEST(VerdictMemoTest, EveryChangeOfTheNodeIsJudgedAfresh) {
  CardCache cache;
  VerdictMemo memo;
  auto mix = std::make_shared<const RequestMix>();
  const contract::PodRequest request = Shared(10);
  auto table = memo.For(request, Policy::kBinpack, mix);
  cache.UpsertNode(SharingNode("n1", 1, 16));
  auto both = Both(cache, *table, request, mix.get(), "n1");
  EXPECT_TRUE(both.first.fits);
  ExpectSame(both);
  // A new pod on the node (counted without a recount) leaves 6 units.
  ASSERT_TRUE(
      cache.UpsertPod(Assigned(MemoryPod("a", 10), "n1", {0}, 16)).ok());
  both = Both(cache, *table, request, mix.get(), "n1");
  EXPECT_FALSE(both.first.fits);
  ExpectSame(both);
  // The pod finishes: the card is free again.
  auto done = Assigned(MemoryPod("a", 10), "n1", {0}, 16);
  cache.RemovePod(done);
  both = Both(cache, *table, request, mix.get(), "n1");
  EXPECT_TRUE(both.first.fits);
  ExpectSame(both);
  // The node is replaced by one with smaller cards.
  cache.UpsertNode(SharingNode("n1", 1, 8));
  both = Both(cache, *table, request, mix.get(), "n1");
  EXPECT_FALSE(both.first.fits);
  ExpectSame(both);
  // Removed, then back as it was: a version it never had.
  cache.RemoveNode("n1");
  both = Both(cache, *table, request, mix.get(), "n1");
  EXPECT_EQ(both.first.reason, NotSharingNodeReason());
  ExpectSame(both);
  cache.UpsertNode(SharingNode("n1", 1, 16));
  both = Both(cache, *table, request, mix.get(), "n1");
  EXPECT_TRUE(both.first.fits);
  ExpectSame(both);
}

TEST(VerdictMemoTest, ShapesPoliciesAndMixesHaveTheirOwnTables) {
  VerdictMemo memo;
  auto mix = std::make_shared<const RequestMix>();
  auto small = memo.For(Shared(4), Policy::kBinpack, mix);
  EXPECT_EQ(memo.For(Shared(4), Policy::kBinpack, mix), small);
  EXPECT_NE(memo.For(Shared(8), Policy::kBinpack, mix), small);
  EXPECT_NE(memo.For(Shared(4), Policy::kSpread, mix), small);
  auto other_mix = std::make_shared<const RequestMix>(
      std::map<uint64_t, uint64_t>{{4, 1}}, std::map<uint32_t, uint64_t>{});
  EXPECT_NE(memo.For(Shared(4), Policy::kBinpack, other_mix), small);
}

TEST(VerdictMemoTest, ManyNodesAndVersionsStayCorrect) {
  CardCache cache;
  VerdictMemo memo;
  auto mix = std::make_shared<const RequestMix>(
      std::map<uint64_t, uint64_t>{{4, 3}, {10, 1}},
      std::map<uint32_t, uint64_t>{{1, 1}});
  const contract::PodRequest request = Shared(4);
  auto table = memo.For(request, Policy::kBinpack, mix);
  const VerdictMemo::Table* first = table.get();
  // More versions than the table's first limit (1024), so it is replaced
  // on the way (while a request holding the old one still reads it);
  // every answer must still be Judge()'s.
  for (int round = 0; round < 3; ++round) {
    for (int n = 0; n < 600; ++n) {
      std::shared_ptr<VerdictMemo::Table> held = table;
      table = memo.For(request, Policy::kBinpack, mix);
      ExpectSame(Both(cache, *held, request, mix.get(), "n0"));
      const std::string name = "n" + std::to_string(n);
      cache.UpsertNode(SharingNode(name, 2, 16));
      if (round > 0) {
        ASSERT_TRUE(cache
                        .UpsertPod(Assigned(
                            MemoryPod("p" + std::to_string(round * 1000 + n),
                                      4 + static_cast<uint64_t>(round)),
                            name, {static_cast<uint32_t>(n % 2)}, 16))
                        .ok());
      }
      ExpectSame(Both(cache, *table, request, mix.get(), name));
    }
  }
  EXPECT_NE(table.get(), first);
}

TEST(VerdictMemoTest, GetAllAnswersInOrderWithUnknownNodes) {
  CardCache cache;
  VerdictMemo memo;
  const contract::PodRequest request = Shared(10);
  auto table = memo.For(request, Policy::kBinpack, nullptr);
  cache.UpsertNode(SharingNode("big", 1, 16));
  cache.UpsertNode(SharingNode("small", 1, 8));
  cache.WithNodes({"small", "none", "big", "small"},
                  [&](const std::vector<const CachedNode*>& nodes) {
                    ASSERT_EQ(nodes.size(), 4u);
                    EXPECT_EQ(nodes[1], nullptr);
                    std::vector<const NodeVerdict*> verdicts =
                        table->GetAll(nodes);
                    ASSERT_EQ(verdicts.size(), 4u);
                    EXPECT_FALSE(verdicts[0]->fits);
                    EXPECT_EQ(verdicts[1]->reason, NotSharingNodeReason());
                    EXPECT_TRUE(verdicts[2]->fits);
                    EXPECT_EQ(verdicts[3], verdicts[0]);  // Judged once.
                    // Known now: the same verdicts again.
                    EXPECT_EQ(table->GetAll(nodes), verdicts);
                  });
}

// Nodes the summary rules out (placement/node_summary.h) get Judge()'s
// verdict too, for every request size, on nodes with cards full, partly
// used, unhealthy or held whole, and larger or smaller than the request.
TEST(VerdictMemoTest, NodesRuledOutBySummaryGetJudgesVerdict) {
  CardCache cache;
  VerdictMemo memo;
  cache.UpsertNode(SharingNode("full", 2, 16));
  cache.UpsertNode(SharingNode("sick", 2, 16, "1", {1}));
  cache.UpsertNode(SharingNode("small", 2, 8));
  cache.UpsertNode(SharingNode("whole", 2, 16));
  int pod = 0;
  auto put = [&](const nlohmann::json& p) {
    ASSERT_TRUE(cache.UpsertPod(p).ok());
  };
  auto shared = [&](uint64_t units, const std::string& node, uint32_t card) {
    put(Assigned(MemoryPod("s" + std::to_string(++pod), units), node, {card},
                 node == "small" ? 8 : 16));
  };
  shared(12, "full", 0);
  shared(9, "full", 1);
  shared(5, "sick", 0);
  shared(3, "small", 1);
  put(Assigned(testing::Pod("ns", "w", "uid-w", {{"main", 0, 1}}), "whole", {0},
               16));
  shared(14, "whole", 1);
  const std::vector<std::string> names = {"full", "sick", "small", "whole",
                                          "none"};
  auto mix = std::make_shared<const RequestMix>(
      std::map<uint64_t, uint64_t>{{2, 3}, {7, 1}},
      std::map<uint32_t, uint64_t>{{1, 1}});
  int ruled_out = 0;
  for (uint64_t units = 1; units <= 20; ++units) {
    for (const Policy policy : {Policy::kBinpack, Policy::kSpread}) {
      const contract::PodRequest request = Shared(units);
      auto table = memo.For(request, policy, mix);
      cache.WithNodes(names, [&](const std::vector<const CachedNode*>& nodes) {
        const std::vector<const NodeVerdict*> verdicts = table->GetAll(nodes);
        for (size_t i = 0; i < nodes.size(); ++i) {
          SCOPED_TRACE(names[i] + " " + std::to_string(units));
          const NodeVerdict judged =
              Judge(nodes[i], request, policy, mix.get());
          ExpectSame({*verdicts[i], judged});
          if (nodes[i] != nullptr &&
              SharedFitsNowhere(nodes[i]->summary, units)) {
            ++ruled_out;
          }
        }
      });
    }
  }
  EXPECT_GT(ruled_out, 20);  // The summary's path was taken.

  // Whole-card requests: more cards than are free is ruled out too.
  int whole_ruled_out = 0;
  cache.UpsertNode(SharingNode("empty", 4, 16));
  const std::vector<std::string> more = {"full",  "sick",  "small",
                                         "whole", "empty", "none"};
  for (uint64_t cards = 1; cards <= 5; ++cards) {
    for (const Policy policy : {Policy::kBinpack, Policy::kSpread}) {
      contract::PodRequest request;
      request.cards = cards;
      auto table = memo.For(request, policy, mix);
      cache.WithNodes(more, [&](const std::vector<const CachedNode*>& nodes) {
        const std::vector<const NodeVerdict*> verdicts = table->GetAll(nodes);
        for (size_t i = 0; i < nodes.size(); ++i) {
          SCOPED_TRACE(more[i] + " cards " + std::to_string(cards));
          ExpectSame(
              {*verdicts[i], Judge(nodes[i], request, policy, mix.get())});
          if (nodes[i] != nullptr &&
              WholeFitsNowhere(nodes[i]->summary, cards)) {
            ++whole_ruled_out;
          }
        }
      });
    }
  }
  EXPECT_GT(whole_ruled_out, 10);
}

// Host figures (node_verdict.h HostFit) are not part of a memoized
// verdict: the memo's JudgeCards() verdict less HostRankPenalty() is
// Judge()'s with the host figures, whatever the node's free CPU or the
// pod's request, so one table serves them all.
TEST(VerdictMemoTest, HostFiguresAreTakenOffTheMemoizedVerdict) {
  CardCache cache;
  VerdictMemo memo;
  RequestHistory history;
  const HostRequest learned{8000, 32};
  for (int i = 0; i < 4; ++i) history.Record(4, 0, &learned);
  std::shared_ptr<const RequestMix> mix = history.Mix();
  ASSERT_TRUE(mix->knows_host());
  const contract::PodRequest request = Shared(4);
  auto table = memo.For(request, Policy::kBinpack, mix);
  cache.UpsertNode(SharingNode("n1", 4, 16));
  cache.Visit({"n1"}, [&](const std::string&, const CachedNode* node) {
    const NodeVerdict& memoized = *table->Get(node);
    ASSERT_TRUE(memoized.fits);
    for (const HostRequest pod : {HostRequest{8000, 32}, HostRequest{500, 1}}) {
      for (const HostRequest free :
           {HostRequest{64000, 512}, HostRequest{12000, 512},
            HostRequest{64000, 512}}) {
        const HostFit host{free, pod};
        const NodeVerdict judged =
            Judge(node, request, Policy::kBinpack, mix.get(), &host);
        std::array<double, 3> rank = memoized.placement.rank;
        rank[0] -= HostRankPenalty(memoized, Policy::kBinpack, mix.get(), host);
        EXPECT_EQ(memoized.fits, judged.fits);
        EXPECT_EQ(rank, judged.placement.rank);
        EXPECT_EQ(memoized.placement.score, judged.placement.score);
      }
    }
    // The tight node ranks below the roomy one (so the penalty must tell
    // them apart for the check above to mean anything).
    const HostRequest pod{8000, 32};
    const HostFit roomy{{64000, 512}, pod}, tight{{12000, 512}, pod};
    EXPECT_LT(HostRankPenalty(memoized, Policy::kBinpack, mix.get(), roomy),
              HostRankPenalty(memoized, Policy::kBinpack, mix.get(), tight));
    EXPECT_EQ(HostRankPenalty(memoized, Policy::kSpread, mix.get(), tight), 0);
  });
  EXPECT_EQ(memo.For(request, Policy::kBinpack, mix), table);
}

}  // namespace
}  // namespace gcushare::extender
