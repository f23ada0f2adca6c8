#include "extender/verdict_memo.h"

#include <algorithm>

namespace gcushare::extender {

std::shared_ptr<const NodeVerdict> VerdictMemo::Table::Get(
    const CachedNode* node) {
  const uint64_t version = node == nullptr ? 0 : node->version;
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = verdicts.find(version);
    if (it != verdicts.end()) return it->second;
  }
  // Judged without the lock: two callers may judge the same node at once,
  // and both get the same verdict.
  auto verdict = std::make_shared<const NodeVerdict>(
      Judge(node, request, policy, mix.get()));
  std::lock_guard<std::mutex> lock(mu);
  // Stale versions accumulate as nodes change: start over past the limit
  // (twice the nodes judged when the table was last empty, at least 1024).
  if (verdicts.size() >= std::max<size_t>(limit, 1024)) {
    limit = 2 * verdicts.size();
    verdicts.clear();
  }
  verdicts.emplace(version, verdict);
  return verdict;
}

std::shared_ptr<VerdictMemo::Table> VerdictMemo::For(
    const contract::PodRequest& request, Policy policy,
    std::shared_ptr<const RequestMix> mix) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto it = tables_.begin(); it != tables_.end(); ++it) {
    const Table& table = **it;
    if (table.memory_units == request.memory_units &&
        table.cards == request.cards && table.policy == policy &&
        table.mix == mix) {
      std::shared_ptr<Table> found = *it;
      tables_.erase(it);
      tables_.push_back(found);
      return found;
    }
  }
  auto table = std::make_shared<Table>();
  table->memory_units = request.memory_units;
  table->cards = request.cards;
  table->policy = policy;
  table->mix = std::move(mix);
  table->request.memory_units = request.memory_units;
  table->request.cards = request.cards;
  // Tables for an older mix are never asked for again.
  std::erase_if(tables_, [&](const std::shared_ptr<Table>& old) {
    return old->mix != table->mix;
  });
  if (tables_.size() >= kShapes) tables_.erase(tables_.begin());
  tables_.push_back(table);
  return table;
}

}  // namespace gcushare::extender
