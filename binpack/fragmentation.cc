#include "binpack/fragmentation.h"

#include <algorithm>

namespace gcushare::binpack {

Fragmentation::Fragmentation(const TaskTypeCounts& counts,
                             double popularity_pct) {
  uint64_t total = 0;
  std::vector<std::pair<uint64_t, TaskType>> sorted;
  for (const auto& [key, count] : counts) {
    total += count;
    TaskType t;
    std::tie(t.cpu, t.units, t.cards) = key;
    sorted.emplace_back(count, t);
  }
  if (total == 0) return;
  // Most frequent first; ties in key order (stable), so the cut is
  // deterministic.
  std::stable_sort(
      sorted.begin(), sorted.end(),
      [](const auto& a, const auto& b) { return a.first > b.first; });
  uint64_t covered = 0;
  for (auto& [count, t] : sorted) {
    t.weight = static_cast<double>(count) / static_cast<double>(total);
    types_.push_back(t);
    covered += count;
    if (100.0 * static_cast<double>(covered) >=
        popularity_pct * static_cast<double>(total)) {
      break;
    }
  }
}

uint64_t Fragmentation::Threshold(const TaskType& t,
                                  uint64_t card_total) const {
  return t.units > 0 ? t.units : card_total;
}

double Fragmentation::TypeFragment(const TaskType& t, int64_t cpu_free,
                                   uint64_t total_free, uint32_t usable,
                                   uint64_t part) {
  const uint32_t needed = t.units > 0 ? 1 : t.cards;
  if (needed == 0 || cpu_free < t.cpu || usable < needed) {
    return static_cast<double>(total_free);
  }
  return static_cast<double>(part);
}

Fragmentation::Terms Fragmentation::Measure(
    int64_t cpu_free, const std::vector<placement::CardUsage>& cards) const {
  Terms terms;
  terms.cpu_free = cpu_free;
  for (const placement::CardUsage& card : cards) {
    terms.card_total = std::max(terms.card_total, card.total_units);
    if (!card.whole) terms.total_free += card.Free();
  }
  terms.part.assign(types_.size(), 0);
  terms.usable.assign(types_.size(), 0);
  for (size_t i = 0; i < types_.size(); ++i) {
    const uint64_t threshold = Threshold(types_[i], terms.card_total);
    for (const placement::CardUsage& card : cards) {
      const uint64_t free = card.whole ? 0 : card.Free();
      if (free < threshold) {
        terms.part[i] += free;
      } else {
        ++terms.usable[i];
      }
    }
    terms.value +=
        types_[i].weight * TypeFragment(types_[i], cpu_free, terms.total_free,
                                        terms.usable[i], terms.part[i]);
  }
  return terms;
}

double Fragmentation::After(const Terms& terms, int64_t cpu,
                            const std::vector<CardChange>& changes) const {
  const int64_t cpu_free = terms.cpu_free - cpu;
  uint64_t total_free = terms.total_free;
  for (const CardChange& change : changes) {
    total_free -= change.before - change.after;
  }
  double value = 0;
  for (size_t i = 0; i < types_.size(); ++i) {
    const uint64_t threshold = Threshold(types_[i], terms.card_total);
    uint64_t part = terms.part[i];
    uint32_t usable = terms.usable[i];
    for (const CardChange& change : changes) {
      if (change.before < threshold) {
        part -= change.before;
      } else {
        --usable;
      }
      if (change.after < threshold) {
        part += change.after;
      } else {
        ++usable;
      }
    }
    value += types_[i].weight *
             TypeFragment(types_[i], cpu_free, total_free, usable, part);
  }
  return value;
}

}  // namespace gcushare::binpack
