#include "placement/node_summary.h"

#include <algorithm>

namespace gcushare::placement {

NodeSummary Summarize(const std::vector<CardUsage>& cards) {
  NodeSummary summary;
  summary.cards = static_cast<uint32_t>(cards.size());
  for (const CardUsage& card : cards) {
    summary.largest_total = std::max(summary.largest_total, card.total_units);
    if (!card.healthy || card.whole) continue;
    if (card.Untouched()) ++summary.untouched;
    summary.largest_free = std::max(summary.largest_free, card.Free());
    summary.free_total += card.Free();
  }
  return summary;
}

bool SharedFitsNowhere(const NodeSummary& summary, uint64_t units) {
  return units > 0 && units <= summary.largest_total &&
         units > summary.largest_free;
}

bool WholeFitsNowhere(const NodeSummary& summary, uint64_t cards) {
  return cards > 0 && cards <= summary.cards && summary.untouched < cards;
}

}  // namespace gcushare::placement
