#include "extender/card_cache.h"

#include <algorithm>

#include "base/mutex.h"
#include "kube/json_fields.h"

namespace gcushare::extender {

using placement::CachedNode;
using placement::CardUsage;
using placement::NodeView;
using placement::NotSharingNodeReason;
using placement::ReadNodeView;
using placement::Summarize;

namespace {

// metadata.uid of `pod` as a view into it ("" when absent or not a string,
// as PodIdentity() reads it).
std::string_view UidView(const nlohmann::json& pod) {
  const nlohmann::json* uid = kube::FindPath(pod, {"metadata", "uid"});
  if (uid == nullptr || !uid->is_string()) return {};
  return uid->get_ref<const std::string&>();
}

}  // namespace

void CardCache::UpsertNode(const nlohmann::json& node) {
  UpsertNode(ReadNodeView(node));
}

void CardCache::UpsertNode(NodeView view, uint32_t host_index) {
  base::WriterMutexLock lock(mu_);
  if (view.name.empty()) return;
  if (view.problem == NotSharingNodeReason()) {
    index_.Erase(view.name);
    nodes_.erase(view.name);
    return;
  }
  std::string name = view.name;
  auto [entry, added] = nodes_.try_emplace(name);
  if (added) index_.Insert(entry->first, &entry->second);
  CachedNode& cached = entry->second;
  cached.view = std::move(view);
  cached.host_index = host_index;
  RecountLocked(name);
}

void CardCache::RemoveNode(std::string_view name) {
  base::WriterMutexLock lock(mu_);
  auto it = nodes_.find(name);
  if (it != nodes_.end()) {
    index_.Erase(it->first);
    nodes_.erase(it);
  }
}

Status CardCache::UpsertPod(const nlohmann::json& pod) {
  return UpsertPod(pod, contract::ComputePodRequest(pod));
}

Status CardCache::UpsertPod(const nlohmann::json& pod,
                            const StatusOr<contract::PodRequest>& request,
                            bool* first_watched) {
  if (first_watched != nullptr) *first_watched = false;
  auto usage = PodUsageFromPod(pod, request);
  // A view into `pod` (no copy per pod event).
  const std::string_view uid = UidView(pod);
  base::WriterMutexLock lock(mu_);
  if (!usage.ok()) {
    ErasePodLocked(std::string(uid));
    return usage.status();
  }
  if (usage->has_value()) {
    const std::string problem = (*usage)->problem;  // Usually "".
    const std::string node = problem.empty() ? "" : (*usage)->node;
    const bool first = PutPodLocked(std::move(**usage));
    if (first_watched != nullptr) *first_watched = first;
    if (!problem.empty()) {
      return InvalidArgumentError(problem + " (counted on " +
                                  (node.empty() ? "its node" : node) + ")");
    }
    return OkStatus();
  }
  auto it = pods_.find(uid);
  if (it == pods_.end()) return OkStatus();
  // Keep a reservation the watch has not caught up with, unless the pod is
  // finished.
  if (it->second.assumed && !PodFinished(pod)) return OkStatus();
  ErasePodLocked(std::string(uid));
  return OkStatus();
}

bool CardCache::PutWatched(PodUsage usage) {
  base::WriterMutexLock lock(mu_);
  return PutPodLocked(std::move(usage));
}

void CardCache::RemovePod(const nlohmann::json& pod) {
  const std::string uid(UidView(pod));
  base::WriterMutexLock lock(mu_);
  ErasePodLocked(uid);
}

uint64_t CardCache::Assume(PodUsage usage) {
  base::WriterMutexLock lock(mu_);
  return AssumeLocked(std::move(usage));
}

uint64_t CardCache::AssumeLocked(PodUsage usage) {
  usage.assumed = true;
  usage.ticket = ++last_ticket_;
  const uint64_t ticket = usage.ticket;
  PutPodLocked(std::move(usage));
  return ticket;
}

void CardCache::Forget(std::string_view uid, uint64_t ticket) {
  base::WriterMutexLock lock(mu_);
  auto it = pods_.find(uid);
  if (it != pods_.end() && it->second.assumed && it->second.ticket == ticket) {
    ErasePodLocked(it->first);
  }
}

void CardCache::Visit(const std::vector<std::string>& names,
                      const std::function<void(const std::string&,
                                               const CachedNode*)>& fn) const {
  base::ReaderMutexLock lock(mu_);
  for (const std::string& name : names) {
    fn(name, index_.Find(name));
  }
}

void CardCache::WithNodes(
    const std::vector<std::string>& names,
    const std::function<void(const std::vector<const CachedNode*>&)>& fn)
    const {
  std::vector<const CachedNode*> nodes;
  nodes.reserve(names.size());
  // Memory-bound (a slot, then the node, per name): the slots a few names
  // ahead and the fields judging reads are requested early.
  constexpr size_t kAhead = 8;
  std::vector<uint64_t> hashes(names.size());  // Outside the lock.
  for (size_t i = 0; i < names.size(); ++i) {
    hashes[i] = NameIndex<const CachedNode>::Hash(names[i]);
  }
  base::ReaderMutexLock lock(mu_);
  for (size_t i = 0; i < names.size() && i < kAhead; ++i) {
    index_.Prefetch(hashes[i]);
  }
  for (size_t i = 0; i < names.size(); ++i) {
    if (i + kAhead < names.size()) index_.Prefetch(hashes[i + kAhead]);
    const CachedNode* node = index_.Find(names[i], hashes[i]);
    if (node != nullptr) {
      __builtin_prefetch(&node->version);
      __builtin_prefetch(&node->view.problem);
    }
    nodes.push_back(node);
  }
  fn(nodes);
}

void CardCache::VisitAll(
    const std::function<void(const std::string&, const CachedNode&)>& fn)
    const {
  base::ReaderMutexLock lock(mu_);
  std::vector<const std::pair<const std::string, CachedNode>*> sorted;
  sorted.reserve(nodes_.size());
  for (const auto& entry : nodes_) sorted.push_back(&entry);
  std::sort(sorted.begin(), sorted.end(),
            [](const auto* a, const auto* b) { return a->first < b->first; });
  for (const auto* entry : sorted) fn(entry->first, entry->second);
}

void CardCache::WithExclusive(const std::function<void(Locked&)>& fn) {
  base::WriterMutexLock lock(mu_);
  Locked locked(this);
  fn(locked);
}

// A Locked exists only inside WithExclusive(), which holds mu_ exclusively.
const CachedNode* CardCache::Locked::Node(std::string_view name) const {
  cache_->mu_.AssertHeld();
  return cache_->index_.Find(name);
}

const PodUsage* CardCache::Locked::Pod(std::string_view uid) const {
  cache_->mu_.AssertHeld();
  auto it = cache_->pods_.find(uid);
  return it == cache_->pods_.end() ? nullptr : &it->second;
}

uint64_t CardCache::Locked::Assume(PodUsage usage) {
  cache_->mu_.AssertHeld();
  return cache_->AssumeLocked(std::move(usage));
}

std::optional<PodUsage> CardCache::Pod(std::string_view uid) const {
  base::ReaderMutexLock lock(mu_);
  auto it = pods_.find(uid);
  if (it == pods_.end()) return std::nullopt;
  return it->second;
}

std::vector<PodUsage> CardCache::PodsOn(std::string_view node) const {
  base::ReaderMutexLock lock(mu_);
  std::vector<PodUsage> out;
  auto it = pods_by_node_.find(node);
  if (it == pods_by_node_.end()) return out;
  for (const std::string& uid : it->second) {
    auto pod = pods_.find(uid);
    if (pod != pods_.end()) out.push_back(pod->second);
  }
  return out;
}

size_t CardCache::node_count() const {
  base::ReaderMutexLock lock(mu_);
  return nodes_.size();
}

size_t CardCache::pod_count() const {
  base::ReaderMutexLock lock(mu_);
  return pods_.size();
}

namespace {

// Counts `pod` on the cards of its node: on the card(s) it names (the last
// of equal indices, as a layout with duplicates is read), or on every card
// when it names none (its card is unknown: never freed unseen).
void Hold(const PodUsage& pod, std::vector<CardUsage>& cards) {
  auto hold = [&pod](CardUsage& card) {
    if (pod.whole) {
      card.whole = true;
    } else {
      card.used_units += pod.units;
    }
  };
  if (pod.cards.empty()) {
    for (CardUsage& card : cards) hold(card);
    return;
  }
  for (uint32_t index : pod.cards) {
    auto card =
        std::find_if(cards.rbegin(), cards.rend(),
                     [index](const CardUsage& c) { return c.index == index; });
    if (card != cards.rend()) hold(*card);  // Else no longer published.
  }
}

}  // namespace

bool CardCache::PutPodLocked(PodUsage usage) {
  // One lookup: the uid is hashed once whether the record is new or not.
  auto [it, added] = pods_.try_emplace(usage.uid);
  if (added) {
    // A new record only adds to its node: counted there without recounting
    // the node's other pods (a relist of 50,000 GCU pods would recount
    // each node once per pod on it).
    PodUsage& pod = it->second;
    pod = std::move(usage);
    pods_by_node_[pod.node].insert(pod.uid);
    // Through the flat index (one probe); it points into nodes_, which
    // this cache owns and holds exclusively here.
    if (CachedNode* node = const_cast<CachedNode*>(index_.Find(pod.node))) {
      node->pod_uids.insert(pod.uid);
      Hold(pod, node->cards);
      TouchLocked(*node);
    }
    return !pod.assumed;
  }
  const bool first = it->second.assumed && !usage.assumed;
  const std::string uid = usage.uid;
  const std::string old_node = it->second.node;
  std::string node = usage.node;
  it->second = std::move(usage);
  if (!old_node.empty() && old_node != node) {
    pods_by_node_[old_node].erase(uid);
    RecountLocked(old_node);
  }
  pods_by_node_[node].insert(uid);
  RecountLocked(node);
  return first;
}

void CardCache::ErasePodLocked(const std::string& uid) {
  auto it = pods_.find(uid);
  if (it == pods_.end()) return;
  std::string node = it->second.node;
  auto by_node = pods_by_node_.find(node);
  if (by_node != pods_by_node_.end()) {
    by_node->second.erase(uid);
    if (by_node->second.empty()) pods_by_node_.erase(by_node);
  }
  pods_.erase(it);  // Last: `uid` may be its key.
  RecountLocked(node);
}

void CardCache::RecountLocked(const std::string& name) {
  auto node_it = nodes_.find(name);
  if (node_it == nodes_.end()) return;
  CachedNode& node = node_it->second;
  node.cards.clear();
  node.pod_uids.clear();
  for (const contract::NodeCard& card : node.view.layout.cards) {
    CardUsage usage;
    usage.index = card.index;
    usage.total_units = card.memory_units;
    usage.healthy = card.healthy;
    usage.numa = card.numa;
    node.cards.push_back(usage);
  }
  auto pods = pods_by_node_.find(name);
  if (pods != pods_by_node_.end()) {
    for (const std::string& uid : pods->second) {
      node.pod_uids.insert(uid);
      Hold(pods_.at(uid), node.cards);
    }
  }
  TouchLocked(node);
}

void CardCache::TouchLocked(CachedNode& node) {
  node.version = ++last_version_;
  node.summary = Summarize(node.cards);
}

}  // namespace gcushare::extender
