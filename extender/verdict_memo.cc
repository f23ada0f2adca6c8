#include "extender/verdict_memo.h"

#include <algorithm>

namespace gcushare::extender {
namespace {

size_t Home(uint64_t version, size_t mask) {
  return static_cast<size_t>(version * 0x9E3779B97F4A7C15ull >> 17) & mask;
}

}  // namespace

size_t VerdictMemo::Table::SlotLocked(uint64_t version) const {
  const size_t mask = slots_.size() - 1;
  for (size_t i = Home(version, mask);; i = (i + 1) & mask) {
    if (slots_[i].second == nullptr || slots_[i].first == version) return i;
  }
}

void VerdictMemo::Table::InsertLocked(uint64_t version,
                                      const NodeVerdict* verdict) {
  if ((verdicts_.size() + 1) * 2 > slots_.size()) {
    std::vector<std::pair<uint64_t, const NodeVerdict*>> old =
        std::move(slots_);
    slots_.assign(std::max<size_t>(64, old.size() * 2), {0, nullptr});
    for (const auto& slot : old) {
      if (slot.second != nullptr) slots_[SlotLocked(slot.first)] = slot;
    }
  }
  slots_[SlotLocked(version)] = {version, verdict};
}

std::vector<const NodeVerdict*> VerdictMemo::Table::GetAll(
    const std::vector<const CachedNode*>& nodes) {
  std::vector<const NodeVerdict*> out(nodes.size(), nullptr);
  std::vector<size_t> missing;
  {
    std::shared_lock lock(mu_);
    if (!slots_.empty()) {
      for (size_t i = 0; i < nodes.size(); ++i) {
        const uint64_t version = nodes[i] == nullptr ? 0 : nodes[i]->version;
        out[i] = slots_[SlotLocked(version)].second;
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
    judged.push_back(Judge(nodes[missing[k]], request, policy, mix.get()));
  }
  std::unique_lock lock(mu_);
  for (size_t k = 0; k < missing.size(); ++k) {
    const size_t i = missing[k];
    const uint64_t version = nodes[i] == nullptr ? 0 : nodes[i]->version;
    const NodeVerdict* known =
        slots_.empty() ? nullptr : slots_[SlotLocked(version)].second;
    if (known == nullptr) {
      verdicts_.push_back(std::move(judged[k]));
      known = &verdicts_.back();
      InsertLocked(version, known);
    }
    out[i] = known;
  }
  return out;
}

const NodeVerdict* VerdictMemo::Table::Get(const CachedNode* node) {
  return GetAll({node}).front();
}

std::shared_ptr<VerdictMemo::Table> VerdictMemo::For(
    const contract::PodRequest& request, Policy policy,
    std::shared_ptr<const RequestMix> mix) {
  std::lock_guard<std::mutex> lock(mu_);
  size_t limit = 1024;
  for (auto it = tables_.begin(); it != tables_.end(); ++it) {
    const Table& table = **it;
    if (table.memory_units == request.memory_units &&
        table.cards == request.cards && table.policy == policy &&
        table.mix == mix) {
      std::shared_ptr<Table> found = *it;
      tables_.erase(it);
      size_t size = 0;
      {
        std::shared_lock table_lock(found->mu_);
        size = found->verdicts_.size();
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
