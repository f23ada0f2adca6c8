// NodeVerdict: whether and how well a pod's GCU request fits one cached
// node. Pure; thread-compatible. Shared by filter, prioritize and bind.
#ifndef GCUSHARE_EXTENDER_NODE_VERDICT_H_
#define GCUSHARE_EXTENDER_NODE_VERDICT_H_

#include <string>

#include "contract/pod_request.h"
#include "extender/card_allocator.h"
#include "extender/card_cache.h"

namespace gcushare::extender {

struct NodeVerdict {
  bool fits = false;
  // When !fits: preemption could not help (wrong node, bad layout, request
  // larger than any card): kube-scheduler's FailedAndUnresolvableNodes.
  bool unresolvable = false;
  std::string reason;   // When !fits.
  Placement placement;  // When fits.
};

// `node` null: not in the cache (not a sharing node). `mix` (may be null) is
// the binpack policy's request mix, borrowed for the call.
NodeVerdict Judge(const CachedNode* node, const contract::PodRequest& request,
                  Policy policy, const RequestMix* mix = nullptr);

// The reason given on every node for a pod asking for both resources.
std::string MixedRequestReason();

}  // namespace gcushare::extender

#endif  // GCUSHARE_EXTENDER_NODE_VERDICT_H_
