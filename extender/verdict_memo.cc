#include "extender/verdict_memo.h"

#include <algorithm>

#include "base/mutex.h"

namespace gcushare::extender {

using placement::CachedNode;
using placement::JudgeCards;
using placement::kInsufficientMemoryReason;
using placement::NodeVerdict;
using placement::NotEnoughFreeCardsReason;
using placement::Policy;
using placement::RequestMix;
using placement::SharedFitsNowhere;
using placement::WholeFitsNowhere;

namespace {

size_t Home(uint64_t version, size_t mask) {
  return static_cast<size_t>((version * 0x9E3779B97F4A7C15ull) >> 17) & mask;
}

// The verdict of every node NodeSummary rules out for a shared request
// (JudgeCards() would give the same; never stored in a table).
const NodeVerdict& FitsNowhere() {
  static const NodeVerdict* const verdict = [] {
    auto* v = new NodeVerdict;
    v->reason = std::string(kInsufficientMemoryReason);
    return v;
  }();
  return *verdict;
}

}  // namespace

VerdictMemo::Table::Key VerdictMemo::Table::KeyOf(const CachedNode* node) {
  return node == nullptr ? 0 : node->version;
}

size_t VerdictMemo::Table::SlotLocked(Key key) const {
  const size_t mask = slots_.size() - 1;
  for (size_t i = Home(key, mask);; i = (i + 1) & mask) {
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

void VerdictMemo::Table::InsertLocked(Key key, const NodeVerdict* verdict) {
  ReserveLocked(stored_ + 1);
  slots_[SlotLocked(key)] = {key, verdict};
  ++stored_;
}

const NodeVerdict* VerdictMemo::Table::RuledOut(const CachedNode* node) const {
  if (node == nullptr || request.Mixed() || !node->view.usable()) {
    return nullptr;
  }
  if (request.cards == 0) {
    return SharedFitsNowhere(node->summary, request.memory_units)
               ? &FitsNowhere()
               : nullptr;
  }
  return WholeFitsNowhere(node->summary, request.cards)
             ? &too_few_free_[node->summary.untouched]
             : nullptr;
}

std::vector<const NodeVerdict*> VerdictMemo::Table::GetAll(
    const std::vector<const CachedNode*>& nodes) {
  std::vector<const NodeVerdict*> out(nodes.size(), nullptr);
  std::vector<size_t> missing;
  // Nodes the summary rules out are answered without the table.
  for (size_t i = 0; i < nodes.size(); ++i) {
    out[i] = RuledOut(nodes[i]);
  }
  {
    base::ReaderMutexLock lock(mu_);
    if (!slots_.empty()) {
      for (size_t i = 0; i < nodes.size(); ++i) {
        if (out[i] != nullptr) continue;
        out[i] = slots_[SlotLocked(KeyOf(nodes[i]))].second;
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
    judged.push_back(JudgeCards(nodes[missing[k]], request, policy, mix.get()));
    // Filter and prioritize read no cards (bind judges afresh): not kept.
    std::vector<uint32_t>().swap(judged.back().placement.cards);
  }
  base::WriterMutexLock lock(mu_);
  ReserveLocked(stored_ + missing.size());
  for (size_t k = 0; k < missing.size(); ++k) {
    const size_t i = missing[k];
    const Key key = KeyOf(nodes[i]);
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

const NodeVerdict* VerdictMemo::Table::Get(const CachedNode* node) {
  return GetAll({node}).front();
}

std::shared_ptr<VerdictMemo::Table> VerdictMemo::For(
    const contract::PodRequest& request, Policy policy,
    std::shared_ptr<const RequestMix> mix, size_t nodes) {
  base::MutexLock lock(mu_);
  // Twice the nodes there are: a table is replaced once half of what it
  // holds is stale, not while it is still filling up (each replacement
  // judges every node afresh).
  const size_t limit = std::max<size_t>(1024, 2 * nodes);
  for (auto it = tables_.begin(); it != tables_.end(); ++it) {
    const Table& table = **it;
    if (table.memory_units == request.memory_units &&
        table.cards == request.cards && table.policy == policy &&
        table.mix == mix) {
      std::shared_ptr<Table> found = *it;
      tables_.erase(it);
      size_t size = 0;
      {
        base::ReaderMutexLock table_lock(found->mu_);
        size = found->stored_;
      }
      if (size < std::max(found->limit, limit)) {
        found->limit = std::max(found->limit, limit);  // Guarded by mu_.
        tables_.push_back(found);
        return found;
      }
      // Stale versions accumulated as nodes changed: start over.
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
  // One verdict per count of free cards short of the request (RuledOut).
  table->too_few_free_.resize(request.Mixed() ? 0 : request.cards);
  for (size_t free = 0; free < table->too_few_free_.size(); ++free) {
    table->too_few_free_[free].reason =
        NotEnoughFreeCardsReason(static_cast<uint32_t>(request.cards), free);
  }
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
