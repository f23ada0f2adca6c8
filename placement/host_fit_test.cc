// The binpack policy's use of node CPU and memory: GCU pods (Judge with a
// HostFit) and pods without GCU requests (PlainRank), on small hand-made
// clusters.
#include <gtest/gtest.h>

#include "placement/node_verdict.h"
#include "placement/plain_rank.h"
#include "placement/request_mix.h"

namespace gcushare::placement {
namespace {

CachedNode Node(int count, uint64_t total) {
  CachedNode node;
  node.view.name = "n";
  for (int i = 0; i < count; ++i) {
    node.cards.push_back({static_cast<uint32_t>(i), total, 0, true, false});
  }
  return node;
}

contract::PodRequest Shared(uint64_t units) {
  contract::PodRequest request;
  request.memory_units = units;
  return request;
}

// GCU pods of 8 units asking 8 cores and 32 GiB each were placed.
std::shared_ptr<const RequestMix> LearnedMix(RequestHistory* history) {
  const HostRequest host{8000, 32};
  for (int i = 0; i < 4; ++i) history->Record(8, 0, &host);
  return history->Mix();
}

TEST(HostFitTest, MixLearnsTheHostRequestsOfGcuPods) {
  RequestHistory history;
  EXPECT_FALSE(history.Mix()->knows_host());
  history.Record(8, 0);  // Without host figures: not counted for them.
  EXPECT_FALSE(history.Mix()->knows_host());
  const HostRequest small{2000, 8}, large{8000, 32};
  history.Record(8, 0, &small);
  history.Record(4, 0, &large);
  auto mix = history.Mix();
  ASSERT_TRUE(mix->knows_host());
  EXPECT_DOUBLE_EQ(mix->HostShortShare({16000, 64}), 0);
  EXPECT_DOUBLE_EQ(mix->HostShortShare({4000, 64}), 0.5);   // CPU short.
  EXPECT_DOUBLE_EQ(mix->HostShortShare({16000, 16}), 0.5);  // Memory short.
  EXPECT_DOUBLE_EQ(mix->HostShortShare({1000, 64}), 1);
  EXPECT_DOUBLE_EQ(mix->HostFragment(10, {4000, 64}), 5);
  EXPECT_DOUBLE_EQ(mix->HostFragment(0, {0, 0}), 0);
}

TEST(HostFitTest, GcuPodPrefersTheNodeWithCpuToSpare) {
  // Two identical nodes fit the card request; on `tight` the pod would
  // leave 4 cores, too few for the learned 8-core GCU pods, stranding the
  // node's other free cards; on `roomy` 40 cores stay.
  RequestHistory history;
  auto mix = LearnedMix(&history);
  const CachedNode tight = Node(4, 16), roomy = Node(4, 16);
  const HostFit tight_host{{12000, 512}, {8000, 32}};
  const HostFit roomy_host{{48000, 512}, {8000, 32}};
  NodeVerdict on_tight =
      Judge(&tight, Shared(8), Policy::kBinpack, mix.get(), &tight_host);
  NodeVerdict on_roomy =
      Judge(&roomy, Shared(8), Policy::kBinpack, mix.get(), &roomy_host);
  ASSERT_TRUE(on_tight.fits && on_roomy.fits);
  EXPECT_GT(on_roomy.placement.rank, on_tight.placement.rank);
  // Without host figures the two nodes rank the same.
  NodeVerdict blind_tight =
      Judge(&tight, Shared(8), Policy::kBinpack, mix.get());
  NodeVerdict blind_roomy =
      Judge(&roomy, Shared(8), Policy::kBinpack, mix.get());
  EXPECT_EQ(blind_tight.placement.rank, blind_roomy.placement.rank);
}

TEST(HostFitTest, StrandingWeighsMoreThanFillingAUsedNode) {
  // Of 8 GCU pods seen, 7 asked 2 cores and one 8. On `used` (card 0 half
  // full) the pod fills card 0 but leaves 4 cores: card 1's 16 free units
  // are stranded for the 8-core share (16 / 8 = 2 units expected). An
  // untouched node of four cards keeps 40 more units free afterwards but
  // strands nothing. Stranding weighs more than 40 / 2 = 20 per unit
  // (docs/binpacking.md "Results": the weight that meets the
  // target in all 12 cells), so the untouched node wins.
  RequestHistory history;
  const HostRequest small{2000, 8}, large{8000, 8};
  for (int i = 0; i < 7; ++i) history.Record(8, 0, &small);
  history.Record(8, 0, &large);
  auto mix = history.Mix();
  CachedNode used = Node(2, 16);
  used.cards[0].used_units = 8;
  const CachedNode untouched = Node(4, 16);
  const HostFit used_host{{10000, 512}, {6000, 8}};
  const HostFit untouched_host{{64000, 512}, {6000, 8}};
  NodeVerdict on_used =
      Judge(&used, Shared(8), Policy::kBinpack, mix.get(), &used_host);
  NodeVerdict on_untouched = Judge(&untouched, Shared(8), Policy::kBinpack,
                                   mix.get(), &untouched_host);
  ASSERT_TRUE(on_used.fits && on_untouched.fits);
  EXPECT_EQ(on_used.placement.cards, std::vector<uint32_t>{0});
  EXPECT_GT(on_untouched.placement.rank, on_used.placement.rank);
  // With CPU to spare on `used` it fills the used node, as before.
  const HostFit used_roomy{{64000, 512}, {6000, 8}};
  NodeVerdict on_used_roomy =
      Judge(&used, Shared(8), Policy::kBinpack, mix.get(), &used_roomy);
  EXPECT_GT(on_used_roomy.placement.rank, on_untouched.placement.rank);
}

TEST(HostFitTest, PlainPodGoesWhereItStrandsNoCardMemory) {
  RequestHistory history;
  auto mix = LearnedMix(&history);
  const HostFit plain{{16000, 512}, {10000, 8}};
  CachedNode free_cards = Node(2, 16);  // 16 cores: after the pod, 6.
  CachedNode full_cards = Node(2, 16);
  for (CardUsage& card : full_cards.cards) card.whole = true;
  const HostFit roomy{{64000, 512}, {10000, 8}};  // 54 cores stay.
  const auto on_free = PlainRank(&free_cards.cards, plain, mix.get());
  const auto on_full = PlainRank(&full_cards.cards, plain, mix.get());
  const auto on_cpu_only = PlainRank(nullptr, plain, mix.get());
  const auto on_roomy = PlainRank(&free_cards.cards, roomy, mix.get());
  // Taking the CPU that the free cards need strands them: last.
  EXPECT_GT(on_roomy, on_free);
  EXPECT_GT(on_full, on_free);
  // Nodes without free card memory come before a node with some.
  EXPECT_GT(on_full, on_roomy);
  EXPECT_GT(on_cpu_only, on_roomy);
  // Among nodes without free card memory, the tightest fit.
  const auto on_full_roomy = PlainRank(&full_cards.cards, roomy, mix.get());
  EXPECT_GT(on_full, on_full_roomy);
}

}  // namespace
}  // namespace gcushare::placement
