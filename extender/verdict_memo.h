// VerdictMemo: verdicts already judged, so that a node that has not changed
// is not judged again for a pod of the same shape. kube-scheduler calls
// filter and then prioritize for the same pod in one scheduling cycle, and
// pods of one shape (the same request) follow each other; each judges a few
// hundred nodes (about 2 us each under binpack, //extender:scale_benchmark).
//
// A verdict depends on the node's cards and view, the request's memory units
// and card count, the policy and the request mix, and nothing else
// (node_verdict.h). The cache gives every change of a node a version never
// used before (CachedNode::version; 0 for a node it does not hold), so
// (shape, policy, mix, version) names a verdict exactly: a memoized verdict
// is the one Judge() would return now.
//
// Memory: at most kShapes tables of at most 2 x (nodes judged) verdicts
// each; a table that grows past that (stale versions) is cleared.
//
// Thread-safety: all methods are safe for concurrent use (one mutex, held
// for a lookup or an insert, never while judging). Verdicts are immutable
// and shared.
#ifndef GCUSHARE_EXTENDER_VERDICT_MEMO_H_
#define GCUSHARE_EXTENDER_VERDICT_MEMO_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "contract/pod_request.h"
#include "extender/card_allocator.h"
#include "extender/node_verdict.h"
#include "extender/request_mix.h"

namespace gcushare::extender {

class VerdictMemo {
 public:
  // The verdicts for one request shape, policy and mix (held, so that a
  // freed mix's address is never mistaken for a new one).
  class Table {
   public:
    // The verdict for `node` (null: not cached), judged now if not known.
    // Call under the cache's read lock (the node must stay as it is).
    std::shared_ptr<const NodeVerdict> Get(const CachedNode* node);

   private:
    friend class VerdictMemo;
    uint64_t memory_units = 0;
    uint64_t cards = 0;
    Policy policy = Policy::kBinpack;
    std::shared_ptr<const RequestMix> mix;
    contract::PodRequest request;  // Judged with (containers unused).
    std::mutex mu;
    std::unordered_map<uint64_t, std::shared_ptr<const NodeVerdict>>
        verdicts;      // By CachedNode::version; guarded by mu.
    size_t limit = 0;  // Guarded by mu.
  };

  // The table for `request`'s shape under `policy` and `mix` (may be null).
  std::shared_ptr<Table> For(const contract::PodRequest& request, Policy policy,
                             std::shared_ptr<const RequestMix> mix);

 private:
  static constexpr size_t kShapes = 8;
  std::mutex mu_;
  // Most recently used last; guarded by mu_.
  std::vector<std::shared_ptr<Table>> tables_;
};

}  // namespace gcushare::extender

#endif  // GCUSHARE_EXTENDER_VERDICT_MEMO_H_
