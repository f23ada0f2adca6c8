// VerdictMemo: verdicts already judged, so that a node that has not changed
// is not judged again for a pod of the same shape. kube-scheduler calls
// filter and then prioritize for the same pod in one scheduling cycle,
// pods of one shape (the same request) follow each other, and the windows
// of candidates it sends rotate through the cluster, so a node is met
// again for a shape seen before; each request judges a few hundred nodes
// (about 0.3 us each under binpack, //extender/benchmarks:scale_benchmark).
//
// A verdict depends on the node's cards and view, the request's memory units
// and card count, the policy and the request mix, and nothing else
// (node_verdict.h). The cache gives every change of a node a version never
// used before (CachedNode::version; 0 for a node it does not hold), so
// (shape, policy, mix, version) names a verdict exactly: a memoized verdict
// is the one JudgeCards() would return now.
//
// Memory: at most kShapes tables (the most recently used shapes) of at most
// 2 x (nodes in the cache) verdicts each (at least 1024; a verdict with its
// slot is about 170 bytes: 0.9 MiB for a shape met on all of 5,000 nodes);
// a table that grows past that (stale versions) is replaced by an empty
// one, and freed when the last request using it ends.
//
// Thread-safety: all methods are safe for concurrent use (a table's lock is
// held for a request's lookups or inserts, never while judging). Verdicts
// are immutable once stored.
//
// The memo holds JudgeCards() verdicts (node_verdict.h): the host figures
// (the node's free CPU/memory and the pod's request) move with every pod
// bound to the node, plain pods included, so they are not part of a
// verdict; the caller takes HostRankPenalty() off each fitting verdict's
// rank per request.
#ifndef GCUSHARE_EXTENDER_VERDICT_MEMO_H_
#define GCUSHARE_EXTENDER_VERDICT_MEMO_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "contract/pod_request.h"
#include "placement/card_allocator.h"
#include "placement/node_verdict.h"
#include "placement/request_mix.h"

namespace gcushare::extender {

class VerdictMemo {
 public:
  // The verdicts for one request shape, policy and mix (held, so that a
  // freed mix's address is never mistaken for a new one). Verdicts are
  // never dropped from a table: a pointer it hands out stays valid while
  // the table lives (callers hold its shared_ptr); a table past its limit
  // is replaced by VerdictMemo::For().
  class Table {
   public:
    // The JudgeCards() verdicts for `nodes` (null: not cached), in order,
    // without placement.cards (filter and prioritize read none; bind
    // judges afresh; a memo of 20 shapes on 5,000 nodes keeps 100,000),
    // judged now where not known; one shared lock for the lookups, one
    // exclusive for the inserts, and the judging between them unlocked.
    // Call under the cache's read lock (the nodes must stay as they are).
    std::vector<const placement::NodeVerdict*> GetAll(
        const std::vector<const placement::CachedNode*>& nodes);
    // GetAll() of one node.
    const placement::NodeVerdict* Get(const placement::CachedNode* node);

   private:
    friend class VerdictMemo;
    // What names a verdict within a table: the node's version
    // (CachedNode::version; 0 for a node not cached).
    using Key = uint64_t;
    static Key KeyOf(const placement::CachedNode* node);
    // Where `key` is (or would go) in slots_.
    size_t SlotLocked(Key key) const REQUIRES_SHARED(mu_);
    void InsertLocked(Key key, const placement::NodeVerdict* verdict)
        REQUIRES(mu_);
    // Sizes slots_ once for `count` verdicts (at most half full).
    void ReserveLocked(size_t count) REQUIRES(mu_);
    // JudgeCards()'s verdict for `node` when its NodeSummary alone rules the
    // request out (a shared request no card's free memory holds, or more
    // whole cards than are free), never stored in slots_; else null.
    const placement::NodeVerdict* RuledOut(
        const placement::CachedNode* node) const;

    uint64_t memory_units = 0;
    uint64_t cards = 0;
    placement::Policy policy = placement::Policy::kBinpack;
    std::shared_ptr<const placement::RequestMix> mix;
    contract::PodRequest request;  // Judged with (containers unused).
    // A whole-card request's verdict on a node with [i] free cards, for
    // i < request.cards; immutable once For() built it.
    std::vector<placement::NodeVerdict> too_few_free_;
    // Verdicts before For() replaces it; guarded by VerdictMemo::mu_.
    size_t limit = 0;

    mutable base::SharedMutex mu_;
    // The verdicts judged by each GetAll(), one block per call (one
    // allocation; a block's buffer never moves).
    std::vector<std::vector<placement::NodeVerdict>> blocks_ GUARDED_BY(mu_);
    size_t stored_ GUARDED_BY(mu_) = 0;  // Verdicts in slots_.
    // Open addressing by placement::CachedNode::version (power-of-two size, at
    // most half full; a null verdict marks a free slot).
    std::vector<std::pair<Key, const placement::NodeVerdict*>> slots_
        GUARDED_BY(mu_);
  };

  // The table for `request`'s shape under `policy` and `mix` (may be
  // null). `nodes`: how many nodes the cache holds (a table may hold twice
  // that, at least 1024, before it is replaced by an empty one).
  std::shared_ptr<Table> For(const contract::PodRequest& request,
                             placement::Policy policy,
                             std::shared_ptr<const placement::RequestMix> mix,
                             size_t nodes = 0);

 private:
  static constexpr size_t kShapes = 24;
  base::Mutex mu_;
  // Most recently used last.
  std::vector<std::shared_ptr<Table>> tables_ GUARDED_BY(mu_);
};

}  // namespace gcushare::extender

#endif  // GCUSHARE_EXTENDER_VERDICT_MEMO_H_
