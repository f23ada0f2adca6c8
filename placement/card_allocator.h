// CardAllocator: which card(s) of one node a pod gets, and how good that
// node is for it. Pure functions over a snapshot of the node's cards.
//
// Rules (docs/contracts.md):
// - A shared request of R units fits on ONE healthy card that no whole-card
//   pod holds and that has R units unclaimed.
// - A whole-card request of N needs N healthy cards with nothing on them;
//   for N > 1 the cards of one NUMA node are preferred (the node with the
//   fewest such cards that has N, so the others stay whole), else the
//   lowest-numbered cards.
// - Shared and whole-card pods never share a card.
//
// Policies:
// - kBinpack (default) leaves as little memory stranded as possible. It
//   measures fragmentation against the requests the extender has placed
//   (RequestMix: free memory no likely request can use, and untouched cards
//   a whole-card request could no longer get). On a node it chooses the
//   card(s) whose use adds the least of it, then the tightest card, then a
//   card in use. Nodes rank by the memory they keep free afterwards plus
//   twice the fragmentation added, smaller first (so used nodes fill before
//   untouched ones, and untouched nodes stay whole for gcu-count pods), then
//   by the tightest card (shared) or the fewest untouched cards left
//   (whole). The 0..10 score is the share of the node's memory in use
//   afterwards (fuller is better). Without a mix (nothing placed yet) this
//   is best fit.
// - kSpread does the opposite: the emptiest card, and nodes with the largest
//   share of their memory still free afterwards score highest.
//
// Thread-compatible; no state.
#ifndef GCUSHARE_PLACEMENT_CARD_ALLOCATOR_H_
#define GCUSHARE_PLACEMENT_CARD_ALLOCATOR_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "placement/request_mix.h"
#include "status/status.h"

namespace gcushare::placement {

// The reason kube-scheduler shows for a node where no card fits.
inline constexpr std::string_view kInsufficientMemoryReason =
    "insufficient GCU Memory in one gcu device";

// The reason a whole-card request of `count` cards fails on a node with
// only `free` entirely free healthy cards.
std::string NotEnoughFreeCardsReason(uint32_t count, size_t free);

enum class Policy { kBinpack, kSpread };

// "binpack" / "spread"; anything else is InvalidArgument.
StatusOr<Policy> ParsePolicy(std::string_view text);

// One card of a node, in the node's memory unit.
struct CardUsage {
  uint32_t index = 0;
  uint64_t total_units = 0;
  uint64_t used_units = 0;  // Claimed by shared pods.
  bool healthy = true;
  bool whole = false;  // Held by a whole-card pod.
  // The card's NUMA node as the node layout publishes it; unset: unknown.
  std::optional<int> numa;

  uint64_t Free() const {
    return used_units >= total_units ? 0 : total_units - used_units;
  }
  bool Untouched() const { return used_units == 0 && !whole; }
};

struct CardRequest {
  uint64_t memory_units = 0;  // Shared request (pod total).
  uint32_t cards = 0;         // Whole-card request.
};

struct Placement {
  std::vector<uint32_t> cards;  // Card indexes, ascending.
  int score = 0;                // 0..10 for kube-scheduler's prioritize.
  // Finer order between nodes for the same request: higher is better,
  // compared lexicographically (kSpread: {score, 0, 0}).
  std::array<double, 3> rank{};
};

// The placement for `request` on a node with `cards`, or FailedPrecondition
// whose message is the reason kube-scheduler will show (for shared requests
// exactly kInsufficientMemoryReason). A request for both memory and cards, or
// for nothing, is InvalidArgument. `mix` (kBinpack; may be null: best fit)
// is borrowed for the call.
StatusOr<Placement> Place(const std::vector<CardUsage>& cards,
                          const CardRequest& request, Policy policy,
                          const RequestMix* mix = nullptr);

}  // namespace gcushare::placement

#endif  // GCUSHARE_PLACEMENT_CARD_ALLOCATOR_H_
