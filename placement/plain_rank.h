// PlainRank: how good a node is for a pod that asks for no GCU ("plain"),
// under the binpack policy: the node where the pod strands the least card
// memory. A plain pod strands card memory when it takes the CPU or memory
// the GCU requests seen would need to use the node's free cards
// (RequestMix::HostFragment, FGD's idea applied to pods without cards).
//
// Order, higher first: the least card memory stranded; then the tightest
// fit by BestFit's node rule: the least CPU left (per 128 cores) plus
// share of the node's card memory free, so a node without free card memory
// (no cards, or all in use) comes before one with some, other things
// equal. (Putting every node without free card memory first strands more
// on the all-sharing gpushare100 trace.)
//
// Pure; thread-compatible.
#ifndef GCUSHARE_PLACEMENT_PLAIN_RANK_H_
#define GCUSHARE_PLACEMENT_PLAIN_RANK_H_

#include <array>
#include <vector>

#include "placement/card_allocator.h"
#include "placement/node_verdict.h"
#include "placement/request_mix.h"

namespace gcushare::placement {

// The rank of a node with `cards` (null: no sharing cards) and host
// figures `host` for a plain pod; compared lexicographically. `mix` (may be
// null: nothing learned, then only the fit orders) is borrowed.
std::array<double, 3> PlainRank(const std::vector<CardUsage>* cards,
                                const HostFit& host, const RequestMix* mix);

}  // namespace gcushare::placement

#endif  // GCUSHARE_PLACEMENT_PLAIN_RANK_H_
