// CardCache: the extender's view of every sharing node's cards and of the
// card memory each pod holds, fed by the node and pod informers and by our
// own binds.
//
// Counting rules (docs/contracts.md):
// - A pod holds memory from the moment our bind reserves it (Assume) until
//   the watch shows it finished (Succeeded/Failed) or deleted. An assumed
//   pod stays counted while the watch still shows it without our
//   annotations (the watch lags our own patch); Forget() drops it when the
//   bind fails.
// - After a restart the cache is rebuilt from the pods' assignment
//   annotations alone, so nothing is double-counted or lost.
// - A card the node reports unhealthy leaves placement; memory held on it
//   stays counted.
//
// Thread-safety: all methods are safe for concurrent use. Reads take a
// shared lock; updates an exclusive one. Visit() callbacks run under the
// shared lock and must not call back into the cache.
#ifndef GCUSHARE_EXTENDER_CARD_CACHE_H_
#define GCUSHARE_EXTENDER_CARD_CACHE_H_

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "extender/name_index.h"
#include "extender/pod_usage.h"
#include "placement/cached_node.h"
#include "placement/node_view.h"
#include "status/status.h"

namespace gcushare::extender {

class CardCache {
 public:
  // From the node informer. A node without the sharing label is removed.
  void UpsertNode(const nlohmann::json& node);
  // The same with ReadNodeView(node) already read (NodeFeed reads it to
  // log first; the layout annotation is parsed once per node event), and
  // the node's NodeResources index (CachedNode::host_index).
  void UpsertNode(placement::NodeView view,
                  uint32_t host_index = placement::kNoHostIndex);
  void RemoveNode(std::string_view name);

  // From the pod informer. An assignment that cannot be read in full is
  // InvalidArgument (the pod stays counted, on its card or on every card of
  // its node; the caller logs it); so is an invalid GCU request in the spec
  // (not counted).
  Status UpsertPod(const nlohmann::json& pod);
  // The same with contract::ComputePodRequest(pod) already computed.
  // `first_watched` (may be null) tells whether this made the pod's first
  // record from the watch: it held nothing before, or only a reservation
  // of our bind (Assume). Once per pod while it holds memory.
  Status UpsertPod(const nlohmann::json& pod,
                   const StatusOr<contract::PodRequest>& request,
                   bool* first_watched = nullptr);
  void RemovePod(const nlohmann::json& pod);
  // What UpsertPod() does for a pod whose usage was read without error and
  // with no problem (AssignedPodUsage(), from the pod's text): records it;
  // returns `first_watched`.
  bool PutWatched(PodUsage usage);

  // Reserves `usage` (assumed=true) for a bind in flight. Replaces an
  // earlier record of the same uid. Returns the reservation's ticket
  // (never 0).
  uint64_t Assume(PodUsage usage);
  // Drops the record of `uid` if it is still the reservation `ticket`
  // made: not replaced by the watch's record nor by another Assume().
  void Forget(std::string_view uid, uint64_t ticket);

  // Runs `fn(name, node)` for each of `names` under one read lock; `node`
  // is null for a node the cache does not hold.
  void Visit(
      const std::vector<std::string>& names,
      const std::function<void(const std::string& name,
                               const placement::CachedNode* node)>& fn) const;
  // Looks every name up under one read lock and calls `fn` once with the
  // nodes in order (null: not cached); the pointers are valid during the
  // call only.
  void WithNodes(
      const std::vector<std::string>& names,
      const std::function<
          void(const std::vector<const placement::CachedNode*>&)>& fn) const;
  // Runs `fn` for every node, in name order, under one read lock.
  void VisitAll(
      const std::function<void(const std::string& name,
                               const placement::CachedNode& node)>& fn) const;
  // Runs `fn(name, node)` under the EXCLUSIVE lock, so that a decision and
  // the Assume() that follows it are atomic with respect to other binds.
  // `fn` may call the passed handle's Assume() only.
  class Locked;
  void WithExclusive(const std::function<void(Locked&)>& fn);

  // The record of `uid`, if any.
  std::optional<PodUsage> Pod(std::string_view uid) const;
  // All pod records on `node`, by uid.
  std::vector<PodUsage> PodsOn(std::string_view node) const;

  size_t node_count() const;
  size_t pod_count() const;

  // Access under WithExclusive().
  class Locked {
   public:
    const placement::CachedNode* Node(std::string_view name) const;
    const PodUsage* Pod(std::string_view uid) const;
    uint64_t Assume(PodUsage usage);  // As CardCache::Assume().

   private:
    friend class CardCache;
    explicit Locked(CardCache* cache) : cache_(cache) {}
    CardCache* cache_;
  };

 private:
  // True when `usage`, from the watch, is the pod's first watched record
  // (none before, or an assumed one).
  bool PutPodLocked(PodUsage usage) REQUIRES(mu_);
  uint64_t AssumeLocked(PodUsage usage) REQUIRES(mu_);
  // `uid` may be the key of the record it erases (read before it goes).
  void ErasePodLocked(const std::string& uid) REQUIRES(mu_);
  void RecountLocked(const std::string& node) REQUIRES(mu_);
  // After `node`'s cards changed: a new version and summary.
  void TouchLocked(placement::CachedNode& node) REQUIRES(mu_);

  mutable base::SharedMutex mu_;
  // Hashed: Visit() looks up hundreds of names per filter call; VisitAll()
  // sorts by name for stable output.
  struct NameHash {
    using is_transparent = void;
    size_t operator()(std::string_view name) const {
      return std::hash<std::string_view>()(name);
    }
  };
  std::unordered_map<std::string, placement::CachedNode, NameHash,
                     std::equal_to<>>
      nodes_ GUARDED_BY(mu_);
  // nodes_ by name, flat (extender/name_index.h): what Visit() and
  // Locked::Node() look names up in. Kept in step with nodes_ under mu_.
  NameIndex<const placement::CachedNode> index_ GUARDED_BY(mu_);
  // By uid; hashed (a relist looks up every GCU pod; nothing reads them in
  // order). Elements never move: PodUsage pointers stay valid.
  std::unordered_map<std::string, PodUsage, NameHash, std::equal_to<>> pods_
      GUARDED_BY(mu_);
  uint64_t last_ticket_ GUARDED_BY(mu_) = 0;
  uint64_t last_version_ GUARDED_BY(mu_) = 0;
  // Node name -> uids of pods holding memory there (also for nodes not
  // cached yet: the pod informer may run ahead of the node informer).
  // Hashed: a relist looks up the node of every GCU pod; nothing reads the
  // nodes in order.
  std::unordered_map<std::string, std::set<std::string>, NameHash,
                     std::equal_to<>>
      pods_by_node_ GUARDED_BY(mu_);
};

}  // namespace gcushare::extender

#endif  // GCUSHARE_EXTENDER_CARD_CACHE_H_
