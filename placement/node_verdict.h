// NodeVerdict: whether and how well a pod's GCU request fits one cached
// node. Pure; thread-compatible. Shared by filter, prioritize and bind.
#ifndef GCUSHARE_PLACEMENT_NODE_VERDICT_H_
#define GCUSHARE_PLACEMENT_NODE_VERDICT_H_

#include <string>

#include "contract/pod_request.h"
#include "placement/cached_node.h"
#include "placement/card_allocator.h"

namespace gcushare::placement {

struct NodeVerdict {
  bool fits = false;
  // When !fits: preemption could not help (wrong node, bad layout, request
  // larger than any card): kube-scheduler's FailedAndUnresolvableNodes.
  bool unresolvable = false;
  std::string reason;   // When !fits.
  Placement placement;  // When fits.
  // When fits, under kBinpack with a mix that knows host requests: the
  // node's UsableCardUnits() before and after the placement, what the host
  // figures weigh (HostRankPenalty); 0 otherwise.
  double usable_before = 0;
  double usable_after = 0;
};

// A node's host resources as the binpack policy weighs them: what is free
// on the node before the pod (allocatable minus the requests of the pods
// on it) and what the pod asks for.
struct HostFit {
  HostRequest node_free;
  HostRequest pod;
};

// `node` null: not in the cache (not a sharing node). `mix` (may be null) is
// the binpack policy's request mix, borrowed for the call. `host` (may be
// null: unknown) adds, under kBinpack with a mix that knows host requests,
// the card memory the pod strands by leaving the node too little CPU or
// memory for the GCU requests seen (RequestMix::HostFragment) to the node's
// rank, weighted 50 per unit (card fragmentation: 2, memory left free: 1):
// among fitting nodes, the one with CPU to spare wins over the one whose
// CPU the pod nearly uses up, even over a node already in use.
NodeVerdict Judge(const CachedNode* node, const contract::PodRequest& request,
                  Policy policy, const RequestMix* mix = nullptr,
                  const HostFit* host = nullptr);

// Judge() in two parts, so that the card part, which depends on the node's
// cards and view alone, can be kept per node version (VerdictMemo) while
// the host figures, which move with every pod bound to the node, are read
// per request: Judge(node, request, policy, mix, host) is JudgeCards() with
// HostRankPenalty() taken off placement.rank[0] (when it fits), exactly.
NodeVerdict JudgeCards(const CachedNode* node,
                       const contract::PodRequest& request, Policy policy,
                       const RequestMix* mix = nullptr);
// What `host` takes off a fitting JudgeCards() verdict's rank[0]: under
// kBinpack with a mix that knows host requests, the card memory the pod
// strands through host resources (HostFragmentAdded), weighted 50 per
// unit; else 0.
double HostRankPenalty(const NodeVerdict& verdict, Policy policy,
                       const RequestMix* mix, const HostFit& host);

// Card memory a pod strands through host resources on a node whose cards'
// usable free memory (UsableCardUnits) goes from `usable_before` to
// `usable_after` as it takes `host.pod` of `host.node_free`:
// RequestMix::HostFragment after minus before. 0 without a mix.
double HostFragmentAdded(double usable_before, double usable_after,
                         const HostFit& host, const RequestMix* mix);

// The free memory of the healthy cards no whole-card pod holds that the
// mix's shared requests can use (a card's free memory less its expected
// fragmentation, RequestMix::SharedFragment).
double UsableCardUnits(const std::vector<CardUsage>& cards,
                       const RequestMix& mix);

// Free memory of the healthy cards no whole-card pod holds.
uint64_t FreeCardUnits(const std::vector<CardUsage>& cards);

// The reason given on every node for a pod asking for both resources.
std::string MixedRequestReason();

}  // namespace gcushare::placement

#endif  // GCUSHARE_PLACEMENT_NODE_VERDICT_H_
