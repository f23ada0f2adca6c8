// RequestMix: the distribution of GCU requests the binpack policy measures
// fragmentation against, learned online from the pods the extender placed.
//
// A card's free memory is "fragmented" for a request size it cannot hold;
// an untouched card is fragmented for a whole-card request of k cards when
// its node has fewer than k untouched cards, and a card in use always is.
// The expected fragmentation of a node is these amounts weighted by how often
// each request was seen (FGD, Weng et al., ATC '23, in card memory units).
//
// Host side: the mix also holds the CPU (millicores) and host memory the
// GCU pods asked for. A node's free card memory is stranded for a request
// whose CPU or memory the node's free CPU or memory cannot host
// (HostFragment), so a node that runs out of CPU while cards stay free
// wastes them.
//
// RequestMix is an immutable value (thread-safe to share). RequestHistory
// collects requests and hands out the current mix; its methods are safe for
// concurrent use. Memory is bounded: one counter per distinct request
// (shared sizes are bounded by the largest card, whole counts by 64; CPU
// and memory requests are rounded up to 1/64 steps of their power of two,
// at most 64 counters per power of two).
#ifndef GCUSHARE_PLACEMENT_REQUEST_MIX_H_
#define GCUSHARE_PLACEMENT_REQUEST_MIX_H_

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "base/mutex.h"
#include "base/thread_annotations.h"

namespace gcushare::placement {

// The host resources one pod asks for: CPU in millicores, memory in any
// unit used consistently with the nodes' (bytes in the extender).
struct HostRequest {
  int64_t cpu_milli = 0;
  int64_t memory = 0;
};

class RequestMix {
 public:
  // An empty mix: every placement fragments nothing (the policy then falls
  // back to best fit).
  RequestMix() = default;
  // From counts of shared sizes (units) and of whole-card counts.
  RequestMix(const std::map<uint64_t, uint64_t>& shared,
             const std::map<uint32_t, uint64_t>& whole);
  // Also with counts of the GCU pods' CPU and memory requests.
  RequestMix(const std::map<uint64_t, uint64_t>& shared,
             const std::map<uint32_t, uint64_t>& whole,
             const std::map<int64_t, uint64_t>& cpu,
             const std::map<int64_t, uint64_t>& memory);

  bool empty() const { return total_ == 0; }
  // Whether any host request was recorded (else HostFragment is 0).
  bool knows_host() const { return host_total_ > 0; }

  // Expected fragmentation, in units, of `free` units on a card that is in
  // use (or untouched, counting shared requests only).
  // Inline: judging a node reads it twice per card.
  double SharedFragment(uint64_t free) const {
    if (free < shared_fragment_.size()) return shared_fragment_[free];
    if (!shared_fragment_.empty()) return 0;  // No size is larger.
    return SharedFragmentOf(free);
  }
  // Expected fragmentation for whole-card requests of a node whose cards in
  // use have `partial_free` units free and whose `untouched` untouched cards
  // have `untouched_free` units.
  double WholeFragment(uint64_t partial_free, uint32_t untouched,
                       uint64_t untouched_free) const;
  // Share of GCU requests a node with `free` CPU and memory cannot host
  // (the larger of the CPU and the memory shares; a negative free amount
  // hosts nothing).
  double HostShortShare(const HostRequest& free) const;
  // Expected card memory, in units, stranded on a node with `free_units`
  // of card memory because its free host resources cannot host the GCU
  // requests: free_units * HostShortShare(free).
  double HostFragment(uint64_t free_units, const HostRequest& free) const;

 private:
  // Share of `values` (ascending, with `above` as for sizes_) above `x`.
  static double ShareAbove(const std::vector<int64_t>& values,
                           const std::vector<double>& above, int64_t x);

  // SharedFragment() computed from sizes_ and above_.
  double SharedFragmentOf(uint64_t free) const;

  uint64_t total_ = 0;
  // SharedFragment(free) for every free < the largest size (larger free
  // amounts fragment nothing), when that is at most kTabulated values:
  // judging a node reads it twice per card (Judge() under binpack).
  static constexpr uint64_t kTabulated = 4096;
  std::vector<double> shared_fragment_;
  std::vector<uint64_t> sizes_;      // Distinct shared sizes, ascending.
  std::vector<double> above_;        // above_[i]: share of sizes >= sizes_[i].
  std::vector<uint32_t> counts_;     // Distinct whole-card counts, ascending.
  std::vector<double> whole_above_;  // whole_above_[i]: share of counts >= ..
  double whole_share_ = 0;           // Share of whole-card requests.
  uint64_t host_total_ = 0;          // GCU requests with host figures.
  std::vector<int64_t> cpu_;         // Distinct CPU requests, ascending.
  std::vector<double> cpu_above_;    // cpu_above_[i]: share >= cpu_[i].
  std::vector<int64_t> memory_;      // Likewise for memory.
  std::vector<double> memory_above_;
};

class RequestHistory {
 public:
  // Counts one placed request (shared units or whole cards; a request for
  // neither is ignored) and, when `host` is given, its CPU and memory.
  void Record(uint64_t memory_units, uint32_t cards,
              const HostRequest* host = nullptr);
  // The mix of what was recorded, as of the last time the count of
  // requests grew by more than a 32nd (kRepublishShare) since the mix
  // before: the same object until then, so that verdicts judged with it
  // stay valid across binds. Cheap when nothing changed.
  std::shared_ptr<const RequestMix> Mix() const;

 private:
  static constexpr uint64_t kRepublishShare = 32;
  mutable base::Mutex mu_;
  uint64_t total_ GUARDED_BY(mu_) = 0;
  mutable uint64_t published_total_ GUARDED_BY(mu_) = 0;  // total_ of mix_.
  std::map<uint64_t, uint64_t> shared_ GUARDED_BY(mu_);
  std::map<uint32_t, uint64_t> whole_ GUARDED_BY(mu_);
  std::map<int64_t, uint64_t> cpu_ GUARDED_BY(mu_);
  std::map<int64_t, uint64_t> memory_ GUARDED_BY(mu_);
  mutable std::shared_ptr<const RequestMix> mix_ GUARDED_BY(mu_);
};

}  // namespace gcushare::placement

#endif  // GCUSHARE_PLACEMENT_REQUEST_MIX_H_
