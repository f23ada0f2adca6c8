// CachedNode: one sharing node as placement judges it (NodeVerdict's
// Judge, VerdictMemo) and as the extender's CardCache holds it: the node
// object as read, its cards' usage and their summary, with the cache's
// bookkeeping (pods, version, host index) beside them.
//
// Plain value; thread-compatible. CardCache owns the ones it holds and
// hands them out under its lock; other users (the binpack replay, tests)
// build their own.
#ifndef GCUSHARE_PLACEMENT_CACHED_NODE_H_
#define GCUSHARE_PLACEMENT_CACHED_NODE_H_

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "placement/card_allocator.h"
#include "placement/node_summary.h"
#include "placement/node_view.h"

namespace gcushare::placement {

// CachedNode::host_index when no NodeResources index was given.
inline constexpr uint32_t kNoHostIndex = UINT32_MAX;

struct CachedNode {
  NodeView view;                   // The node object as last read.
  std::vector<CardUsage> cards;    // One per published card, layout order.
  std::set<std::string> pod_uids;  // Pods holding memory here.
  // Changes whenever `view` or `cards` change, to a value no node of this
  // cache ever had (never 0): what VerdictMemo keys verdicts by.
  uint64_t version = 0;
  // The node's index in NodeResources (NodeResources::IndexOf, stable for
  // the process), so that a filter reads its candidates' host figures
  // without looking their names up a second time; kNoHostIndex when the
  // feed gave none. Beside `version`: read by the filter that reads it.
  uint32_t host_index = kNoHostIndex;
  // Summarize(cards), recomputed with every new version (beside it: read
  // first for each candidate, before the cards).
  NodeSummary summary;
};

}  // namespace gcushare::placement

#endif  // GCUSHARE_PLACEMENT_CACHED_NODE_H_
