#include "placement/card_allocator.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace gcushare::placement {
namespace {

int Round(double x) { return static_cast<int>(std::lround(x)); }

// How much one unit of expected fragmentation weighs against one unit of
// memory left free on a node, in kBinpack's node rank (tuned with the
// openb replay, docs/binpacking.md).
constexpr double kFragmentWeight = 2;

// Share of the node's healthy memory still unclaimed after adding `units`.
double NodeFreeShareAfter(const std::vector<CardUsage>& cards, uint64_t units) {
  uint64_t total = 0, free = 0;
  for (const CardUsage& card : cards) {
    if (!card.healthy) continue;
    total += card.total_units;
    free += card.whole ? 0 : card.Free();
  }
  if (total == 0) return 0;
  free = free > units ? free - units : 0;
  return static_cast<double>(free) / static_cast<double>(total);
}

// The healthy cards of a node, summed the way RequestMix measures them.
struct NodeFree {
  uint64_t partial_free = 0;  // On cards in use by shared pods.
  uint32_t untouched = 0;
  uint64_t untouched_free = 0;

  uint64_t Total() const { return partial_free + untouched_free; }
};

NodeFree SumFree(const std::vector<CardUsage>& cards) {
  NodeFree sum;
  for (const CardUsage& card : cards) {
    if (!card.healthy || card.whole) continue;
    if (card.Untouched()) {
      ++sum.untouched;
      sum.untouched_free += card.Free();
    } else {
      sum.partial_free += card.Free();
    }
  }
  return sum;
}

// Fragmentation the shared pod of `units` adds on `card` of a node whose
// free memory is `sum` (whose whole-card fragmentation is `before`).
double SharedFragmentAdded(const RequestMix& mix, const NodeFree& sum,
                           double before, const CardUsage& card,
                           uint64_t units) {
  const uint64_t free = card.Free();
  const uint64_t after = free - units;
  double added = mix.SharedFragment(after) - mix.SharedFragment(free);
  if (card.Untouched()) {
    added += mix.WholeFragment(sum.partial_free + after, sum.untouched - 1,
                               sum.untouched_free - free) -
             before;
  } else {
    added += mix.WholeFragment(sum.partial_free - units, sum.untouched,
                               sum.untouched_free) -
             before;
  }
  return added;
}

StatusOr<Placement> PlaceShared(const std::vector<CardUsage>& cards,
                                uint64_t units, Policy policy,
                                const RequestMix& mix) {
  const NodeFree sum = SumFree(cards);
  const double before = policy == Policy::kBinpack
                            ? mix.WholeFragment(sum.partial_free, sum.untouched,
                                                sum.untouched_free)
                            : 0;
  const CardUsage* best = nullptr;
  std::array<double, 3> best_key{};
  double best_added = 0;
  for (const CardUsage& card : cards) {
    if (!card.healthy || card.whole || card.Free() < units) continue;
    std::array<double, 3> key;
    double added = 0;
    if (policy == Policy::kBinpack) {
      // Least fragmentation added, then the tightest fit, then a card in
      // use over an untouched one.
      added = SharedFragmentAdded(mix, sum, before, card, units);
      key = {-added, -static_cast<double>(card.Free() - units),
             card.Untouched() ? 0.0 : 1.0};
    } else {
      key = {static_cast<double>(card.Free()), 0, 0};
    }
    if (best == nullptr || key > best_key) {  // Ties keep the lower index.
      best = &card;
      best_key = key;
      best_added = added;
    }
  }
  if (best == nullptr) {
    return FailedPreconditionError(std::string(kInsufficientMemoryReason));
  }
  Placement placement;
  placement.cards = {best->index};
  if (policy == Policy::kBinpack) {
    placement.score = Round(10 * (1 - NodeFreeShareAfter(cards, units)));
    // Nodes: the least memory left plus twice the fragmentation added
    // (fuller nodes first, keeping untouched nodes whole), then the
    // tightest card.
    placement.rank = {-static_cast<double>(sum.Total() - units) -
                          kFragmentWeight * best_added,
                      best_key[1], 0};
  } else {
    placement.score = Round(10 * NodeFreeShareAfter(cards, units));
    placement.rank = {static_cast<double>(placement.score), 0, 0};
  }
  return placement;
}

// `count` of the `free` cards, all on one NUMA node when one has enough
// (the one with the fewest free cards, then the lowest number); else the
// first `count`. Sets *local when they share a known NUMA node.
std::vector<const CardUsage*> ChooseWholeCards(
    const std::vector<const CardUsage*>& free, uint32_t count, bool* local) {
  std::map<int, std::vector<const CardUsage*>> by_numa;
  for (const CardUsage* card : free) {
    if (card->numa) by_numa[*card->numa].push_back(card);
  }
  const std::vector<const CardUsage*>* best = nullptr;
  for (const auto& [numa, group] : by_numa) {
    if (group.size() >= count &&
        (best == nullptr || group.size() < best->size())) {
      best = &group;
    }
  }
  *local = best != nullptr;
  const std::vector<const CardUsage*>& from = best != nullptr ? *best : free;
  return {from.begin(), from.begin() + count};
}

StatusOr<Placement> PlaceWhole(const std::vector<CardUsage>& cards,
                               uint32_t count, Policy policy,
                               const RequestMix& mix) {
  std::vector<const CardUsage*> free;
  for (const CardUsage& card : cards) {
    if (card.healthy && card.Untouched()) free.push_back(&card);
  }
  if (free.size() < count) {
    return FailedPreconditionError(
        NotEnoughFreeCardsReason(count, free.size()));
  }
  Placement placement;
  uint64_t taken = 0;
  double added = 0;
  bool numa_local = false;
  for (const CardUsage* card : ChooseWholeCards(free, count, &numa_local)) {
    placement.cards.push_back(card->index);
    taken += card->Free();
    added -= mix.SharedFragment(card->Free());
  }
  std::sort(placement.cards.begin(), placement.cards.end());
  if (policy == Policy::kBinpack) {
    // Taking untouched cards where fewest stay untouched keeps whole nodes
    // free for larger requests.
    const NodeFree sum = SumFree(cards);
    added +=
        mix.WholeFragment(sum.partial_free, sum.untouched - count,
                          sum.untouched_free - taken) -
        mix.WholeFragment(sum.partial_free, sum.untouched, sum.untouched_free);
    placement.score = Round(10 * (1 - NodeFreeShareAfter(cards, taken)));
    placement.rank = {
        -static_cast<double>(sum.Total() - taken) - kFragmentWeight * added,
        -static_cast<double>(sum.untouched - count), numa_local ? 1.0 : 0.0};
  } else {
    const double share =
        static_cast<double>(count) / static_cast<double>(free.size());
    placement.score = Round(10 * (1 - share));
    placement.rank = {static_cast<double>(placement.score), 0, 0};
  }
  return placement;
}

}  // namespace

std::string NotEnoughFreeCardsReason(uint32_t count, size_t free) {
  return "insufficient free GCU cards: need " + std::to_string(count) +
         " entirely free healthy cards, " + std::to_string(free) + " free";
}

StatusOr<Policy> ParsePolicy(std::string_view text) {
  if (text == "binpack") return Policy::kBinpack;
  if (text == "spread") return Policy::kSpread;
  return InvalidArgumentError("unknown policy \"" + std::string(text) +
                              "\" (valid: binpack, spread)");
}

StatusOr<Placement> Place(const std::vector<CardUsage>& cards,
                          const CardRequest& request, Policy policy,
                          const RequestMix* mix) {
  static const RequestMix kNoMix;  // Empty; immutable, shared by threads.
  const RequestMix& used_mix = mix != nullptr ? *mix : kNoMix;
  if (request.memory_units > 0 && request.cards > 0) {
    return InvalidArgumentError(
        "pod asks for both enflame.com/gcu-memory and enflame.com/gcu-count; "
        "ask for one");
  }
  if (request.memory_units > 0) {
    return PlaceShared(cards, request.memory_units, policy, used_mix);
  }
  if (request.cards > 0) {
    return PlaceWhole(cards, request.cards, policy, used_mix);
  }
  return InvalidArgumentError("pod asks for no GCU");
}

}  // namespace gcushare::placement
