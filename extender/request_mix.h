// RequestMix: the distribution of GCU requests the binpack policy measures
// fragmentation against, learned online from the pods the extender placed.
//
// A card's free memory is "fragmented" for a request size it cannot hold;
// an untouched card is fragmented for a whole-card request of k cards when
// its node has fewer than k untouched cards, and a card in use always is.
// The expected fragmentation of a node is these amounts weighted by how often
// each request was seen (FGD, Weng et al., ATC '23, in card memory units).
//
// RequestMix is an immutable value (thread-safe to share). RequestHistory
// collects requests and hands out the current mix; its methods are safe for
// concurrent use. Memory is bounded: one counter per distinct request
// (shared sizes are bounded by the largest card, whole counts by 64).
#ifndef GCUSHARE_EXTENDER_REQUEST_MIX_H_
#define GCUSHARE_EXTENDER_REQUEST_MIX_H_

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace gcushare::extender {

class RequestMix {
 public:
  // An empty mix: every placement fragments nothing (the policy then falls
  // back to best fit).
  RequestMix() = default;
  // From counts of shared sizes (units) and of whole-card counts.
  RequestMix(const std::map<uint64_t, uint64_t>& shared,
             const std::map<uint32_t, uint64_t>& whole);

  bool empty() const { return total_ == 0; }

  // Expected fragmentation, in units, of `free` units on a card that is in
  // use (or untouched, counting shared requests only).
  double SharedFragment(uint64_t free) const;
  // Expected fragmentation for whole-card requests of a node whose cards in
  // use have `partial_free` units free and whose `untouched` untouched cards
  // have `untouched_free` units.
  double WholeFragment(uint64_t partial_free, uint32_t untouched,
                       uint64_t untouched_free) const;

 private:
  uint64_t total_ = 0;
  std::vector<uint64_t> sizes_;      // Distinct shared sizes, ascending.
  std::vector<double> above_;        // above_[i]: share of sizes >= sizes_[i].
  std::vector<uint32_t> counts_;     // Distinct whole-card counts, ascending.
  std::vector<double> whole_above_;  // whole_above_[i]: share of counts >= ..
  double whole_share_ = 0;           // Share of whole-card requests.
};

class RequestHistory {
 public:
  // Counts one placed request (shared units or whole cards; a request for
  // neither is ignored).
  void Record(uint64_t memory_units, uint32_t cards);
  // The mix of what was recorded, as of the last time the count of
  // requests grew by more than a 32nd (kRepublishShare) since the mix
  // before: the same object until then, so that verdicts judged with it
  // stay valid across binds. Cheap when nothing changed.
  std::shared_ptr<const RequestMix> Mix() const;

 private:
  static constexpr uint64_t kRepublishShare = 32;
  mutable std::mutex mu_;
  uint64_t total_ = 0;                             // Guarded by mu_.
  mutable uint64_t published_total_ = 0;           // total_ of mix_; by mu_.
  std::map<uint64_t, uint64_t> shared_;            // Guarded by mu_.
  std::map<uint32_t, uint64_t> whole_;             // Guarded by mu_.
  mutable std::shared_ptr<const RequestMix> mix_;  // Guarded by mu_.
};

}  // namespace gcushare::extender

#endif  // GCUSHARE_EXTENDER_REQUEST_MIX_H_
