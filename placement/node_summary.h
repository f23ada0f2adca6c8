// NodeSummary: what one node's cards add up to, kept by CardCache beside
// the cards and recomputed with every change of them (with
// CachedNode::version), so that a judgement can rule a node out from a few
// bytes held inline in the node, without reading its card vector (a
// separate allocation: one more cache miss per candidate, 500 a filter).
//
// Pure value; thread-compatible.
#ifndef GCUSHARE_PLACEMENT_NODE_SUMMARY_H_
#define GCUSHARE_PLACEMENT_NODE_SUMMARY_H_

#include <cstdint>
#include <vector>

#include "placement/card_allocator.h"

namespace gcushare::placement {

struct NodeSummary {
  uint32_t cards = 0;          // Cards published, healthy or not.
  uint32_t untouched = 0;      // Healthy cards with nothing on them.
  uint64_t largest_total = 0;  // The largest card's memory, any health.
  // The most free memory on one healthy card no whole-card pod holds: the
  // largest shared request Place() can fit on the node.
  uint64_t largest_free = 0;
  uint64_t free_total = 0;  // Free memory of those cards, summed.

  bool operator==(const NodeSummary&) const = default;
};

NodeSummary Summarize(const std::vector<CardUsage>& cards);

// Whether a shared request of `units` (> 0) fits on no card of a node
// with `summary`, for the reason Place() gives (kInsufficientMemoryReason):
// it is no larger than the largest card, but larger than the free memory
// of every usable card. False when Place() must decide (it may fit) or
// when another check comes first (larger than any card).
bool SharedFitsNowhere(const NodeSummary& summary, uint64_t units);

// Whether a whole-card request of `cards` (> 0) fails on a node with
// `summary` for the reason Place() gives (NotEnoughFreeCardsReason with
// summary.untouched free): the node has that many cards, but fewer of
// them entirely free and healthy. False when Place() must decide or
// another check comes first (more cards than the node has).
bool WholeFitsNowhere(const NodeSummary& summary, uint64_t cards);

}  // namespace gcushare::placement

#endif  // GCUSHARE_PLACEMENT_NODE_SUMMARY_H_
