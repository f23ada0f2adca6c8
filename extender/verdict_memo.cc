#include "extender/verdict_memo.h"

#include <algorithm>

namespace gcushare::extender {
namespace {

size_t Home(uint64_t version, int64_t cpu, int64_t memory, size_t mask) {
  uint64_t h = version * 0x9E3779B97F4A7C15ull;
  h ^= static_cast<uint64_t>(cpu) * 0xC2B2AE3D27D4EB4Full;
  h ^= static_cast<uint64_t>(memory) * 0x165667B19E3779F9ull;
  return static_cast<size_t>(h >> 17) & mask;
}

// The verdict of every node NodeSummary rules out for a shared request
// (Judge() would give the same; never stored in a table).
const NodeVerdict& FitsNowhere() {
  static const NodeVerdict* const verdict = [] {
    auto* v = new NodeVerdict;
    v->reason = std::string(kInsufficientMemoryReason);
    return v;
  }();
  return *verdict;
}

// Whether Judge(node, request, ...) fails on the node's summary alone, as
// Place() would on its cards: a shared request (the checks Judge() makes
// before Place() pass) larger than every usable card's free memory.
bool RuledOut(const CachedNode* node, const contract::PodRequest& request) {
  return node != nullptr && request.cards == 0 && !request.Mixed() &&
         node->view.usable() &&
         SharedFitsNowhere(node->summary, request.memory_units);
}

bool SameHost(const std::optional<HostRequest>& a,
              const std::optional<HostRequest>& b) {
  if (a.has_value() != b.has_value()) return false;
  return !a.has_value() ||
         (a->cpu_milli == b->cpu_milli && a->memory == b->memory);
}

}  // namespace

VerdictMemo::Table::Key VerdictMemo::Table::KeyOf(
    const CachedNode* node, const std::optional<HostRequest>& free) const {
  Key key;
  key.version = node == nullptr ? 0 : node->version;
  if (pod_host.has_value() && free.has_value()) {
    key.host = true;
    key.free_cpu_milli = free->cpu_milli;
    key.free_memory = free->memory;
  }
  return key;
}

size_t VerdictMemo::Table::SlotLocked(const Key& key) const {
  const size_t mask = slots_.size() - 1;
  for (size_t i = Home(key.version, key.free_cpu_milli, key.free_memory, mask);;
       i = (i + 1) & mask) {
    if (slots_[i].second == nullptr || slots_[i].first == key) return i;
  }
}

void VerdictMemo::Table::ReserveLocked(size_t count) {
  size_t size = std::max<size_t>(64, slots_.size());
  while (count * 2 > size) size *= 2;
  if (size == slots_.size()) return;
  std::vector<std::pair<Key, const NodeVerdict*>> old = std::move(slots_);
  slots_.assign(size, {Key{}, nullptr});
  for (const auto& slot : old) {
    if (slot.second != nullptr) slots_[SlotLocked(slot.first)] = slot;
  }
}

void VerdictMemo::Table::InsertLocked(const Key& key,
                                      const NodeVerdict* verdict) {
  ReserveLocked(stored_ + 1);
  slots_[SlotLocked(key)] = {key, verdict};
  ++stored_;
}

std::vector<const NodeVerdict*> VerdictMemo::Table::GetAll(
    const std::vector<const CachedNode*>& nodes,
    const std::vector<std::optional<HostRequest>>* node_free) {
  static const std::optional<HostRequest> kUnknown;
  auto free_of = [&](size_t i) -> const std::optional<HostRequest>& {
    return node_free == nullptr ? kUnknown : (*node_free)[i];
  };
  std::vector<const NodeVerdict*> out(nodes.size(), nullptr);
  std::vector<size_t> missing;
  // Nodes the summary rules out are answered without the table.
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (RuledOut(nodes[i], request)) out[i] = &FitsNowhere();
  }
  {
    std::shared_lock lock(mu_);
    if (!slots_.empty()) {
      for (size_t i = 0; i < nodes.size(); ++i) {
        if (out[i] != nullptr) continue;
        out[i] = slots_[SlotLocked(KeyOf(nodes[i], free_of(i)))].second;
      }
    }
  }
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (out[i] == nullptr) missing.push_back(i);
  }
  if (missing.empty()) return out;
  // Judged without the lock: two requests may judge the same node at once;
  // the first stored verdict is kept (both are the same).
  std::vector<NodeVerdict> judged;
  judged.reserve(missing.size());
  constexpr size_t kAhead = 4;  // Cards of the nodes judged next, early.
  for (size_t k = 0; k < missing.size(); ++k) {
    if (k + kAhead < missing.size()) {
      const CachedNode* next = nodes[missing[k + kAhead]];
      if (next != nullptr) __builtin_prefetch(next->cards.data());
    }
    const std::optional<HostRequest>& free = free_of(missing[k]);
    std::optional<HostFit> host;
    if (pod_host.has_value() && free.has_value()) {
      host = HostFit{*free, *pod_host};
    }
    judged.push_back(Judge(nodes[missing[k]], request, policy, mix.get(),
                           host ? &*host : nullptr));
  }
  std::unique_lock lock(mu_);
  ReserveLocked(stored_ + missing.size());
  for (size_t k = 0; k < missing.size(); ++k) {
    const size_t i = missing[k];
    const Key key = KeyOf(nodes[i], free_of(i));
    const NodeVerdict* known = slots_[SlotLocked(key)].second;
    if (known == nullptr) {
      known = &judged[k];
      InsertLocked(key, known);
    }
    out[i] = known;
  }
  // Moved whole: the verdicts keep their addresses.
  blocks_.push_back(std::move(judged));
  return out;
}

const NodeVerdict* VerdictMemo::Table::Get(
    const CachedNode* node, const std::optional<HostRequest>& free) {
  const std::vector<std::optional<HostRequest>> node_free = {free};
  return GetAll({node}, &node_free).front();
}

std::shared_ptr<VerdictMemo::Table> VerdictMemo::For(
    const contract::PodRequest& request, Policy policy,
    std::shared_ptr<const RequestMix> mix,
    const std::optional<HostRequest>& pod_host) {
  std::lock_guard<std::mutex> lock(mu_);
  size_t limit = 1024;
  for (auto it = tables_.begin(); it != tables_.end(); ++it) {
    const Table& table = **it;
    if (table.memory_units == request.memory_units &&
        table.cards == request.cards && table.policy == policy &&
        table.mix == mix && SameHost(table.pod_host, pod_host)) {
      std::shared_ptr<Table> found = *it;
      tables_.erase(it);
      size_t size = 0;
      {
        std::shared_lock table_lock(found->mu_);
        size = found->stored_;
      }
      if (size < found->limit) {
        tables_.push_back(found);
        return found;
      }
      // Stale versions accumulated as nodes changed: start over, allowing
      // twice what it held.
      limit = 2 * size;
      break;
    }
  }
  auto table = std::make_shared<Table>();
  table->memory_units = request.memory_units;
  table->cards = request.cards;
  table->policy = policy;
  table->mix = std::move(mix);
  table->request.memory_units = request.memory_units;
  table->request.cards = request.cards;
  table->pod_host = pod_host;
  table->limit = limit;
  // Tables for an older mix are never asked for again.
  std::erase_if(tables_, [&](const std::shared_ptr<Table>& old) {
    return old->mix != table->mix;
  });
  if (tables_.size() >= kShapes) tables_.erase(tables_.begin());
  tables_.push_back(table);
  return table;
}

}  // namespace gcushare::extender
