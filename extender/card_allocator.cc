#include "extender/card_allocator.h"

#include <algorithm>
#include <cmath>

namespace gcushare::extender {
namespace {

int Round(double x) { return static_cast<int>(std::lround(x)); }

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

StatusOr<Placement> PlaceShared(const std::vector<CardUsage>& cards,
                                uint64_t units, Policy policy) {
  const CardUsage* best = nullptr;
  for (const CardUsage& card : cards) {
    if (!card.healthy || card.whole || card.Free() < units) continue;
    if (best == nullptr) {
      best = &card;
      continue;
    }
    bool better;
    if (policy == Policy::kBinpack) {
      // A card in use beats an untouched one; then the tightest fit.
      if (card.Untouched() != best->Untouched()) {
        better = !card.Untouched();
      } else {
        better = card.Free() < best->Free();
      }
    } else {
      better = card.Free() > best->Free();
    }
    if (better) best = &card;  // Ties keep the lower index (input order).
  }
  if (best == nullptr) {
    return FailedPreconditionError(std::string(kInsufficientMemoryReason));
  }
  const double fill = static_cast<double>(best->used_units + units) /
                      static_cast<double>(best->total_units);
  Placement placement;
  placement.cards = {best->index};
  if (policy == Policy::kBinpack) {
    placement.score = best->Untouched() ? Round(4 * fill) : 5 + Round(5 * fill);
  } else {
    placement.score = Round(10 * NodeFreeShareAfter(cards, units));
  }
  return placement;
}

StatusOr<Placement> PlaceWhole(const std::vector<CardUsage>& cards,
                               uint32_t count, Policy policy) {
  std::vector<const CardUsage*> free;
  for (const CardUsage& card : cards) {
    if (card.healthy && card.Untouched()) free.push_back(&card);
  }
  if (free.size() < count) {
    return FailedPreconditionError("insufficient free GCU cards: need " +
                                   std::to_string(count) +
                                   " entirely free healthy cards, " +
                                   std::to_string(free.size()) + " free");
  }
  Placement placement;
  for (uint32_t i = 0; i < count; ++i) {
    placement.cards.push_back(free[i]->index);
  }
  std::sort(placement.cards.begin(), placement.cards.end());
  const double share =
      static_cast<double>(count) / static_cast<double>(free.size());
  placement.score =
      policy == Policy::kBinpack ? Round(10 * share) : Round(10 * (1 - share));
  return placement;
}

}  // namespace

StatusOr<Policy> ParsePolicy(std::string_view text) {
  if (text == "binpack") return Policy::kBinpack;
  if (text == "spread") return Policy::kSpread;
  return InvalidArgumentError("unknown policy \"" + std::string(text) +
                              "\" (valid: binpack, spread)");
}

StatusOr<Placement> Place(const std::vector<CardUsage>& cards,
                          const CardRequest& request, Policy policy) {
  if (request.memory_units > 0 && request.cards > 0) {
    return InvalidArgumentError(
        "pod asks for both enflame.com/gcu-memory and enflame.com/gcu-count; "
        "ask for one");
  }
  if (request.memory_units > 0) {
    return PlaceShared(cards, request.memory_units, policy);
  }
  if (request.cards > 0) return PlaceWhole(cards, request.cards, policy);
  return InvalidArgumentError("pod asks for no GCU");
}

}  // namespace gcushare::extender
