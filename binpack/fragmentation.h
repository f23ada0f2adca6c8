// Fragmentation: the FGD paper's measure of how much of a node's free card
// capacity the target workload cannot use (Weng et al., "Beware of
// Fragmentation", ATC '23, section 3; the simulator's
// NodeGpuShareFragAmountScore), used by the replay's `fgd` reference.
//
// For one task type t on one node, all of the node's free card units are
// fragment when the node cannot host t for CPU (t's CPU exceeds the node's
// free CPU), when the node's free units in total are fewer than t asks, or
// when t asks no card at all; otherwise the fragment is the free units of
// the cards t cannot use (a sharing type: cards with fewer free units than
// it asks; a whole-card type: cards not entirely free). A node's
// fragmentation is the sum over the task types weighted by their share of
// the workload's tasks.
//
// Immutable after construction; thread-safe to share.
#ifndef GCUSHARE_BINPACK_FRAGMENTATION_H_
#define GCUSHARE_BINPACK_FRAGMENTATION_H_

#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "placement/card_allocator.h"

namespace gcushare::binpack {

// One kind of task: CPU millicores, units on one card (sharing) or whole
// cards (at most one of the two), and its share of the workload's tasks.
struct TaskType {
  int64_t cpu = 0;
  uint64_t units = 0;
  uint32_t cards = 0;
  double weight = 0;
};

// A task type's key (cpu, units, cards) -> number of tasks of that type.
using TaskTypeCounts =
    std::map<std::tuple<int64_t, uint64_t, uint32_t>, uint64_t>;

class Fragmentation {
 public:
  // The most frequent types, in order of frequency, until they cover
  // `popularity_pct` % of the tasks (the simulator's
  // podPopularityThreshold, 95 in the paper's runs); weights are shares of
  // all tasks (not renormalized, as in the simulator).
  Fragmentation(const TaskTypeCounts& counts, double popularity_pct);

  const std::vector<TaskType>& types() const { return types_; }

  // One node's measure, kept so that a candidate placement's measure costs
  // one pass over the types.
  struct Terms {
    int64_t cpu_free = 0;
    uint64_t total_free = 0;       // Free units of the cards not held whole.
    uint64_t card_total = 0;       // The largest card's units.
    std::vector<uint64_t> part;    // Per type: free units of unusable cards.
    std::vector<uint32_t> usable;  // Per type: cards it can use.
    double value = 0;              // The node's fragmentation.
  };
  Terms Measure(int64_t cpu_free,
                const std::vector<placement::CardUsage>& cards) const;

  // A card whose free units change from `before` to `after`.
  struct CardChange {
    uint64_t before = 0, after = 0;
  };
  // The node's fragmentation once `cpu` millicores and the card changes
  // are taken from the node measured as `terms`.
  double After(const Terms& terms, int64_t cpu,
               const std::vector<CardChange>& changes) const;

 private:
  // Free units at or above which type `t` can use a card.
  uint64_t Threshold(const TaskType& t, uint64_t card_total) const;
  // Fragment of type `t` on a node with these figures.
  static double TypeFragment(const TaskType& t, int64_t cpu_free,
                             uint64_t total_free, uint32_t usable,
                             uint64_t part);

  std::vector<TaskType> types_;  // Most frequent first.
};

}  // namespace gcushare::binpack

#endif  // GCUSHARE_BINPACK_FRAGMENTATION_H_
