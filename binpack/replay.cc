#include "binpack/replay.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>

#include "binpack/fragmentation.h"
#include "contract/pod_request.h"
#include "placement/cached_node.h"
#include "placement/card_allocator.h"
#include "placement/node_verdict.h"
#include "placement/plain_rank.h"
#include "placement/request_mix.h"

namespace gcushare::binpack {
namespace {

using placement::CachedNode;
using placement::CardUsage;

// The share of the trace's tasks whose types fgd measures fragmentation
// against: all of them. (The simulator's podPopularityThreshold of 95 leaves
// out the rare 8-card types here, and fgd then strands 11 % on default.)
constexpr double kPopularityPct = 100;

struct SimNode {
  int64_t cpu_total = 0, memory_total = 0;
  int64_t cpu_free = 0, memory_free = 0;
  CachedNode cached;  // Cards as the extender's cache would hold them.
};

// A task in the replay's units.
struct SimTask {
  int64_t cpu = 0, memory = 0;
  uint64_t units = 0;   // Sharing: on one card.
  uint32_t cards = 0;   // Whole cards.
  uint64_t demand = 0;  // Units counted as arrived.
};

StatusOr<uint64_t> CardUnits(const std::string& model,
                             const ReplayConfig& config) {
  if (config.mode == ReplayConfig::Mode::kMilli) return uint64_t{1000};
  static constexpr std::pair<std::string_view, uint64_t> kKnown[] = {
      {"T4", 16}, {"P100", 16}, {"V100M16", 16}, {"V100M32", 32}, {"A10", 24}};
  if (model == "G2") return uint64_t{config.g2_gib};
  if (model == "G3") return uint64_t{config.g3_gib};
  for (const auto& [name, gib] : kKnown) {
    if (model == name) return gib;
  }
  return InvalidArgumentError("card model \"" + model +
                              "\" has no known memory size");
}

SimTask ToSimTask(const TraceTask& task, const ReplayConfig& config) {
  SimTask sim{task.cpu_milli, task.memory_mib, 0, 0, 0};
  const bool milli = config.mode == ReplayConfig::Mode::kMilli;
  const uint64_t whole = milli ? 1000 : config.reference_gib;
  if (task.Sharing()) {
    sim.units =
        milli ? task.gpu_milli
              : (uint64_t{task.gpu_milli} * config.reference_gib + 999) / 1000;
    sim.demand = sim.units;
  } else if (task.Whole()) {
    sim.cards = task.num_gpu;
    sim.demand = whole * task.num_gpu;
  }
  return sim;
}

uint64_t FreeUnits(const CachedNode& node) {
  uint64_t free = 0;
  for (const CardUsage& card : node.cards) {
    if (!card.whole) free += card.Free();
  }
  return free;
}

// One replay run; owns its cluster state.
class Run {
 public:
  Run(std::vector<SimNode> nodes, ReplayPolicy policy,
      const ReplayConfig& config, const placement::RequestMix* trace_mix,
      const Fragmentation* fragmentation, uint64_t seed)
      : nodes_(std::move(nodes)),
        policy_(policy),
        config_(config),
        trace_mix_(trace_mix),
        fragmentation_(fragmentation),
        terms_(nodes_.size()),
        terms_valid_(nodes_.size(), false),
        random_(seed) {}

  // The node index and cards for `task`, or -1 when it is dropped.
  int Choose(const SimTask& task, std::vector<uint32_t>* cards) {
    best_.clear();
    if (policy_ == ReplayPolicy::kFgd) return ChooseFgd(task, cards);
    if (task.units == 0 && task.cards == 0) {
      if (policy_ == ReplayPolicy::kDefault) return ChoosePlain(task);
      return ChooseCpuOnly(task);
    }
    switch (policy_) {
      case ReplayPolicy::kDefault:
      case ReplayPolicy::kDefaultGcuOnly:
      case ReplayPolicy::kDefaultCards:
        return ChooseDefault(task, cards);
      case ReplayPolicy::kBestFit:
        return ChooseBestFit(task, cards);
      case ReplayPolicy::kFgdCards:
        return ChooseFgdCards(task, cards);
      case ReplayPolicy::kFgd:
      case ReplayPolicy::kFgdGcu:
        return ChooseFgd(task, cards);
    }
    return -1;
  }

  void Apply(const SimTask& task, int index,
             const std::vector<uint32_t>& cards) {
    SimNode& node = nodes_[index];
    terms_valid_[index] = false;
    node.cpu_free -= task.cpu;
    node.memory_free -= task.memory;
    for (uint32_t card : cards) {
      if (task.cards > 0) {
        node.cached.cards[card].whole = true;
      } else {
        node.cached.cards[card].used_units += task.units;
      }
    }
    if (task.units > 0 || task.cards > 0) {
      const placement::HostRequest host{task.cpu, task.memory};
      history_.Record(task.units, task.cards,
                      policy_ == ReplayPolicy::kDefaultCards ? nullptr : &host);
    }
  }

  // Units allocated on all cards.
  uint64_t Allocated() const {
    uint64_t used = 0;
    for (const SimNode& node : nodes_) {
      for (const CardUsage& card : node.cached.cards) {
        used += card.whole ? card.total_units : card.used_units;
      }
    }
    return used;
  }

 private:
  bool HostFits(const SimNode& node, const SimTask& task) const {
    return node.cpu_free >= task.cpu && node.memory_free >= task.memory;
  }

  // Keeps the candidates with the highest key; returns a random one.
  template <typename Key>
  void Offer(int index, const Key& key, Key* best_key) {
    if (best_.empty() || key > *best_key) {
      best_.assign(1, index);
      *best_key = key;
    } else if (key == *best_key) {
      best_.push_back(index);
    }
  }
  int Pick() {
    if (best_.empty()) return -1;
    if (best_.size() == 1) return best_[0];
    std::uniform_int_distribution<size_t> pick(0, best_.size() - 1);
    return best_[pick(random_)];
  }

  int ChooseCpuOnly(const SimTask& task) {
    // Every policy alike, by BestFit's node rule: the extender never sees
    // these pods, and the paper's FGD weighs them by the CPU they take from
    // card tasks, which this replay does not model.
    double best_key = 0;
    for (size_t i = 0; i < nodes_.size(); ++i) {
      const SimNode& node = nodes_[i];
      if (!HostFits(node, task)) continue;
      Offer(static_cast<int>(i), -BestFitScore(node, task, 0), &best_key);
    }
    return Pick();
  }

  static placement::HostFit HostOf(const SimNode& node, const SimTask& task) {
    return {{node.cpu_free, node.memory_free}, {task.cpu, task.memory}};
  }

  // default: the extender's ranking of plain pods (PlainRank), the best
  // rank, random among ties.
  int ChoosePlain(const SimTask& task) {
    std::shared_ptr<const placement::RequestMix> mix = history_.Mix();
    std::array<double, 3> best_key{};
    for (size_t i = 0; i < nodes_.size(); ++i) {
      const SimNode& node = nodes_[i];
      if (!HostFits(node, task)) continue;
      const placement::HostFit host = HostOf(node, task);
      Offer(static_cast<int>(i),
            placement::PlainRank(
                node.cached.cards.empty() ? nullptr : &node.cached.cards, host,
                mix.get()),
            &best_key);
    }
    return Pick();
  }

  int ChooseDefault(const SimTask& task, std::vector<uint32_t>* cards) {
    contract::PodRequest request;
    request.memory_units = task.units;
    request.cards = task.cards;
    std::shared_ptr<const placement::RequestMix> mix = history_.Mix();
    std::array<double, 3> best_key{};
    std::vector<std::vector<uint32_t>> placements(nodes_.size());
    for (size_t i = 0; i < nodes_.size(); ++i) {
      const SimNode& node = nodes_[i];
      if (node.cached.cards.empty() || !HostFits(node, task)) continue;
      const placement::HostFit host = HostOf(node, task);
      placement::NodeVerdict verdict = placement::Judge(
          &node.cached, request, placement::Policy::kBinpack, mix.get(),
          policy_ == ReplayPolicy::kDefaultCards ? nullptr : &host);
      if (!verdict.fits) continue;
      placements[i] = std::move(verdict.placement.cards);
      Offer(static_cast<int>(i), verdict.placement.rank, &best_key);
    }
    int chosen = Pick();
    if (chosen >= 0) *cards = placements[chosen];
    return chosen;
  }

  double BestFitScore(const SimNode& node, const SimTask& task,
                      uint64_t taken) const {
    const double reference = config_.mode == ReplayConfig::Mode::kMilli
                                 ? 1000
                                 : config_.reference_gib;
    return 0.5 * static_cast<double>(node.cpu_free - task.cpu) / 128000.0 +
           0.5 * static_cast<double>(FreeUnits(node.cached) - taken) /
               (8 * reference);
  }

  // The tightest fitting card(s) of `node`; empty when none fit.
  static std::vector<uint32_t> TightestCards(const CachedNode& node,
                                             const SimTask& task) {
    std::vector<uint32_t> out;
    if (task.cards > 0) {
      for (const CardUsage& card : node.cards) {
        if (card.Untouched() && out.size() < task.cards) {
          out.push_back(card.index);
        }
      }
      if (out.size() < task.cards) out.clear();
      return out;
    }
    const CardUsage* best = nullptr;
    for (const CardUsage& card : node.cards) {
      if (card.whole || card.Free() < task.units) continue;
      if (best == nullptr || card.Free() < best->Free()) best = &card;
    }
    if (best != nullptr) out.push_back(best->index);
    return out;
  }

  int ChooseBestFit(const SimTask& task, std::vector<uint32_t>* cards) {
    double best_key = 0;
    const uint64_t taken = task.cards > 0 ? 0 : task.units;
    for (size_t i = 0; i < nodes_.size(); ++i) {
      const SimNode& node = nodes_[i];
      if (!HostFits(node, task)) continue;
      std::vector<uint32_t> fit = TightestCards(node.cached, task);
      if (fit.empty()) continue;
      uint64_t used = taken;
      for (uint32_t card : fit) {
        if (task.cards > 0) used += node.cached.cards[card].total_units;
      }
      Offer(static_cast<int>(i), -BestFitScore(node, task, used), &best_key);
    }
    int chosen = Pick();
    if (chosen >= 0) *cards = TightestCards(nodes_[chosen].cached, task);
    return chosen;
  }

  // The node's fragmentation terms, measured when first needed after a
  // change.
  const Fragmentation::Terms& TermsOf(size_t i) {
    if (!terms_valid_[i]) {
      terms_[i] =
          fragmentation_->Measure(nodes_[i].cpu_free, nodes_[i].cached.cards);
      terms_valid_[i] = true;
    }
    return terms_[i];
  }

  // The simulator's FGD score of a fragmentation decrease: a sigmoid of it
  // in cards, in 0..100 whole points (int64(sigmoid(x / 1000) * 100)).
  double FgdScore(double decrease) const {
    const double card = config_.mode == ReplayConfig::Mode::kMilli
                            ? 1000
                            : config_.reference_gib;
    return std::floor(100.0 / (1.0 + std::exp(-decrease / card)));
  }

  // fgd: the node (and card, the first of the best) with the best FGD
  // score, random among ties; tasks without cards too.
  int ChooseFgd(const SimTask& task, std::vector<uint32_t>* cards) {
    double best_key = 0;
    std::vector<std::vector<uint32_t>> choice(nodes_.size());
    std::vector<Fragmentation::CardChange> changes;
    for (size_t i = 0; i < nodes_.size(); ++i) {
      const SimNode& node = nodes_[i];
      if (!HostFits(node, task)) continue;
      if (task.units == 0 && task.cards == 0) {
        const Fragmentation::Terms& terms = TermsOf(i);
        Offer(
            static_cast<int>(i),
            FgdScore(terms.value - fragmentation_->After(terms, task.cpu, {})),
            &best_key);
        continue;
      }
      if (node.cached.cards.empty()) continue;
      if (task.cards > 0) {
        std::vector<uint32_t> fit = TightestCards(node.cached, task);
        if (fit.empty()) continue;
        changes.clear();
        for (uint32_t card : fit) {
          changes.push_back({node.cached.cards[card].Free(), 0});
        }
        const Fragmentation::Terms& terms = TermsOf(i);
        choice[i] = fit;
        Offer(static_cast<int>(i),
              FgdScore(terms.value -
                       fragmentation_->After(terms, task.cpu, changes)),
              &best_key);
        continue;
      }
      double node_best = -std::numeric_limits<double>::infinity();
      seen_free_.clear();
      for (const CardUsage& card : node.cached.cards) {
        if (card.whole || card.Free() < task.units) continue;
        // Cards with the same free units score the same: the first counts.
        if (std::find(seen_free_.begin(), seen_free_.end(), card.Free()) !=
            seen_free_.end()) {
          continue;
        }
        seen_free_.push_back(card.Free());
        const Fragmentation::Terms& terms = TermsOf(i);
        const double key = FgdScore(
            terms.value -
            fragmentation_->After(terms, task.cpu,
                                  {{card.Free(), card.Free() - task.units}}));
        if (key > node_best) {
          node_best = key;
          choice[i] = {card.index};
        }
      }
      if (choice[i].empty()) continue;
      Offer(static_cast<int>(i), node_best, &best_key);
    }
    int chosen = Pick();
    if (chosen >= 0) *cards = choice[chosen];
    return chosen;
  }

  // Expected fragmentation of `node` against the trace's mix.
  double CardFragmentation(const CachedNode& node) const {
    double fragment = 0;
    uint64_t partial = 0, untouched_free = 0;
    uint32_t untouched = 0;
    for (const CardUsage& card : node.cards) {
      if (card.whole) continue;
      fragment += trace_mix_->SharedFragment(card.Free());
      if (card.Untouched()) {
        ++untouched;
        untouched_free += card.Free();
      } else {
        partial += card.Free();
      }
    }
    return fragment +
           trace_mix_->WholeFragment(partial, untouched, untouched_free);
  }

  int ChooseFgdCards(const SimTask& task, std::vector<uint32_t>* cards) {
    double best_key = 0;
    std::vector<std::vector<uint32_t>> choice(nodes_.size());
    for (size_t i = 0; i < nodes_.size(); ++i) {
      SimNode& node = nodes_[i];
      if (node.cached.cards.empty() || !HostFits(node, task)) continue;
      const double before = CardFragmentation(node.cached);
      if (task.cards > 0) {
        std::vector<uint32_t> fit = TightestCards(node.cached, task);
        if (fit.empty()) continue;
        for (uint32_t card : fit) node.cached.cards[card].whole = true;
        const double added = CardFragmentation(node.cached) - before;
        for (uint32_t card : fit) node.cached.cards[card].whole = false;
        choice[i] = fit;
        Offer(static_cast<int>(i), -added, &best_key);
        continue;
      }
      double node_best = std::numeric_limits<double>::infinity();
      for (CardUsage& card : node.cached.cards) {
        if (card.whole || card.Free() < task.units) continue;
        card.used_units += task.units;
        const double added = CardFragmentation(node.cached) - before;
        card.used_units -= task.units;
        if (added < node_best) {
          node_best = added;
          choice[i] = {card.index};
        }
      }
      if (choice[i].empty()) continue;
      Offer(static_cast<int>(i), -node_best, &best_key);
    }
    int chosen = Pick();
    if (chosen >= 0) *cards = choice[chosen];
    return chosen;
  }

  std::vector<SimNode> nodes_;
  const ReplayPolicy policy_;
  const ReplayConfig& config_;
  const placement::RequestMix* trace_mix_;   // kFgdCards; borrowed.
  const Fragmentation* fragmentation_;       // kFgd; borrowed.
  std::vector<Fragmentation::Terms> terms_;  // kFgd: per node, cached.
  std::vector<bool> terms_valid_;
  std::vector<uint64_t> seen_free_;  // kFgd: scratch.
  std::mt19937_64 random_;
  std::vector<int> best_;
  placement::RequestHistory history_;  // kDefault: what was placed.
};

}  // namespace

StatusOr<ReplayPolicy> ParseReplayPolicy(std::string_view text) {
  if (text == "default") return ReplayPolicy::kDefault;
  if (text == "default-gcu-only") return ReplayPolicy::kDefaultGcuOnly;
  if (text == "default-cards") return ReplayPolicy::kDefaultCards;
  if (text == "bestfit") return ReplayPolicy::kBestFit;
  if (text == "fgd") return ReplayPolicy::kFgd;
  if (text == "fgd-cards") return ReplayPolicy::kFgdCards;
  if (text == "fgd-gcu") return ReplayPolicy::kFgdGcu;
  return InvalidArgumentError(
      "unknown policy \"" + std::string(text) +
      "\" (valid: default, default-gcu-only, default-cards, bestfit, fgd, "
      "fgd-cards, fgd-gcu)");
}

std::string_view ReplayPolicyName(ReplayPolicy policy) {
  switch (policy) {
    case ReplayPolicy::kDefault:
      return "default";
    case ReplayPolicy::kDefaultGcuOnly:
      return "default-gcu-only";
    case ReplayPolicy::kDefaultCards:
      return "default-cards";
    case ReplayPolicy::kBestFit:
      return "bestfit";
    case ReplayPolicy::kFgd:
      return "fgd";
    case ReplayPolicy::kFgdCards:
      return "fgd-cards";
    case ReplayPolicy::kFgdGcu:
      return "fgd-gcu";
  }
  return "?";
}

StatusOr<ReplayResult> Replay(const std::vector<TraceNode>& nodes,
                              const std::vector<TraceTask>& tasks,
                              const ReplayConfig& config, ReplayPolicy policy,
                              uint64_t seed) {
  if (nodes.empty()) return InvalidArgumentError("the cluster has no nodes");
  if (tasks.empty()) return InvalidArgumentError("the task list is empty");
  std::vector<SimNode> sim_nodes;
  uint64_t capacity = 0;
  for (const TraceNode& node : nodes) {
    SimNode sim;
    sim.cpu_total = sim.cpu_free = node.cpu_milli;
    sim.memory_total = sim.memory_free = node.memory_mib;
    sim.cached.view.name = node.name;
    sim.cached.view.unit_text = "1";
    if (node.gpus > 0) {
      auto units = CardUnits(node.model, config);
      if (!units.ok()) return units.status().WithContext(node.name);
      for (uint32_t i = 0; i < node.gpus; ++i) {
        sim.cached.cards.push_back({i, *units, 0, true, false});
        capacity += *units;
      }
    }
    if (sim.cpu_total <= 0 || sim.memory_total <= 0) {
      return InvalidArgumentError(node.name + " has no CPU or memory");
    }
    sim_nodes.push_back(std::move(sim));
  }
  if (capacity == 0) return InvalidArgumentError("the cluster has no cards");

  std::vector<SimTask> sim_tasks;
  sim_tasks.reserve(tasks.size());
  for (const TraceTask& task : tasks) {
    sim_tasks.push_back(ToSimTask(task, config));
  }
  // The trace's task types and request mix, for fgd and fgd-cards (the
  // paper knows them in advance).
  std::map<uint64_t, uint64_t> shared;
  std::map<uint32_t, uint64_t> whole;
  TaskTypeCounts counts;
  for (const SimTask& task : sim_tasks) {
    if (task.units > 0) ++shared[task.units];
    if (task.cards > 0) ++whole[task.cards];
    ++counts[{task.cpu, task.units, task.cards}];
  }
  const placement::RequestMix trace_mix(shared, whole);
  const Fragmentation fragmentation(counts, kPopularityPct);

  // Resample: the whole list plus random copies, then shuffle.
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<size_t> any(0, sim_tasks.size() - 1);
  std::vector<SimTask> workload = sim_tasks;
  if (config.mode == ReplayConfig::Mode::kMilli) {
    const size_t extra = static_cast<size_t>(
        std::llround(sim_tasks.size() * std::max(0.0, config.inflation - 1)));
    for (size_t i = 0; i < extra; ++i)
      workload.push_back(sim_tasks[any(random)]);
  } else {
    uint64_t demand = 0;
    for (const SimTask& task : workload) demand += task.demand;
    const double target = config.inflation * static_cast<double>(capacity);
    while (static_cast<double>(demand) < target) {
      workload.push_back(sim_tasks[any(random)]);
      demand += workload.back().demand;
    }
  }
  std::shuffle(workload.begin(), workload.end(), random);

  Run run(std::move(sim_nodes), policy, config, &trace_mix, &fragmentation,
          seed);
  uint64_t arrived = 0, dropped = 0;
  std::vector<uint32_t> cards;
  for (size_t i = 0; i < workload.size(); ++i) {
    const SimTask& task = workload[i];
    cards.clear();
    int chosen = run.Choose(task, &cards);
    if (chosen < 0) {
      dropped += task.demand;
    } else {
      run.Apply(task, chosen, cards);
    }
    arrived += task.demand;
    if (arrived >= capacity) {
      ReplayResult result;
      result.unallocated_pct =
          100.0 - 100.0 * static_cast<double>(run.Allocated()) /
                      static_cast<double>(capacity);
      result.dropped_pct =
          100.0 * static_cast<double>(dropped) / static_cast<double>(arrived);
      result.tasks = i + 1;
      return result;
    }
  }
  return FailedPreconditionError(
      "the resampled tasks never reach the cluster's capacity");
}

}  // namespace gcushare::binpack
