// Replay: places a trace's tasks one at a time on its cluster, the way the
// FGD paper's simulator does (tasks arrive in shuffled order and never
// leave; a task no node can take is dropped), and reports how much card
// memory stays unallocated once the arrived demand reaches the cluster's
// capacity.
//
// The `default` policy is the extender as it ships: every node the in-tree
// NodeResourcesFit filter passes (CPU and host memory fit) is judged by
// placement::Judge() with Policy::kBinpack and the RequestMix learned from
// the tasks placed so far, the node is chosen the way kube-scheduler
// chooses from the extender's answers (the best rank, random among ties:
// the extender's filter keeps only the best-ranked nodes), and the cards
// are the ones Judge() chose. Judge() is given the node's free CPU and
// memory and the task's (placement::HostFit), and the mix learns the GCU
// tasks' CPU and memory, so a node whose free cards the task would strand
// for lack of CPU ranks lower. The tasks without cards are ranked by the
// extender too (placement::PlainRank: where they strand the least card
// memory; the plain-pod scheduler extender entry, shipped by default). The
// variants:
// - default-gcu-only: default without the plain-pod entry (chart
//   extender.rankPlainPods: false): the tasks without cards go by
//   BestFit's node rule below, as under default-cards, bestfit, fgd-gcu
//   and fgd-cards;
// - default-cards: default-gcu-only without host figures (the policy
//   before node CPU reached the extender).
// The references:
// - bestfit, the paper's BestFit: the node left with the least
//   0.5 * free CPU / 128 cores + 0.5 * free card memory / 8 reference cards,
//   then the tightest card;
// - fgd, the paper's Fragmentation Gradient Descent (Weng et al., ATC '23)
//   as its simulator scores it: the node (and its first card) whose
//   fragmentation (binpack/fragmentation.h: CPU counts too, against all the
//   trace's task types, known in advance) falls most, in the simulator's
//   100 score points (a sigmoid), random among ties; it places the tasks
//   without cards as well;
// - fgd-cards, the earlier card-only FGD: least expected fragmentation
//   added against the trace's request mix (placement::RequestMix), for
//   comparison;
// - fgd-gcu, fgd for the tasks with cards only; the others go by BestFit's
//   node rule as under default (like for like with the extender, which
//   never sees them).
//
// Pure function of its inputs and seed; thread-compatible (runs may go on
// in parallel threads).
#ifndef GCUSHARE_BINPACK_REPLAY_H_
#define GCUSHARE_BINPACK_REPLAY_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "binpack/trace.h"
#include "status/status.h"

namespace gcushare::binpack {

enum class ReplayPolicy {
  kDefault,
  kDefaultGcuOnly,
  kDefaultCards,
  kBestFit,
  kFgd,
  kFgdCards,
  kFgdGcu
};

// "default", "default-gcu-only", "default-cards", "bestfit", "fgd",
// "fgd-cards", "fgd-gcu"; anything else is InvalidArgument.
StatusOr<ReplayPolicy> ParseReplayPolicy(std::string_view text);
std::string_view ReplayPolicyName(ReplayPolicy policy);

struct ReplayConfig {
  // kMemory: cards hold GiB by model (units of 1 GiB); a sharing task asks
  // ceil(gpu_milli / 1000 * reference_gib) GiB on one card. kMilli: the
  // paper's model, every card 1000 units and a sharing task gpu_milli.
  enum class Mode { kMemory, kMilli };
  Mode mode = Mode::kMemory;
  uint32_t g2_gib = 16;  // Undisclosed card models' sizes.
  uint32_t g3_gib = 32;
  uint32_t reference_gib = 16;  // A whole card's share of a sharing task.
  // The task list is resampled to this share of the capacity (kMilli: of
  // the task count, as the paper's simulator does).
  double inflation = 1.3;
};

struct ReplayResult {
  // At the first arrival that brings the arrived demand to the capacity.
  double unallocated_pct = 0;  // Card memory not allocated, % of capacity.
  double dropped_pct = 0;      // Demand of dropped tasks, % of arrived.
  size_t tasks = 0;            // Tasks arrived by then.
};

// InvalidArgument for a node model without a known size or an empty
// cluster; FailedPrecondition when the resampled tasks never reach the
// capacity.
StatusOr<ReplayResult> Replay(const std::vector<TraceNode>& nodes,
                              const std::vector<TraceTask>& tasks,
                              const ReplayConfig& config, ReplayPolicy policy,
                              uint64_t seed);

}  // namespace gcushare::binpack

#endif  // GCUSHARE_BINPACK_REPLAY_H_
