// ShareLedger: the memory of each card that prepared claims hold, the last
// line of defence against an allocator bug (DRA.md 6.6).
//
// A hold is one allocation result of one claim. A result is a SHARE when it
// has a shareID or consumes less than the whole card (KEP-5075); its amount
// is its consumed memory, or the whole card when none is given. Any other
// result is a WHOLE card. Admit(claim, results) takes all of a claim's
// holds at once, or none:
//   - a whole card cannot join a card with any other hold, and a share
//     cannot join a card held whole;
//   - the shares on a card sum to at most the card's memory;
//   - the same share (card, shareID) twice, a card not in the inventory, or
//     a claim already admitted, are errors.
// A card is free again when no claim holds it any more (reference counting
// by claim: Release(uid) drops all of that claim's holds).
//
// Thread-compatible (ClaimPreparer serialises it). Errors are
// ResourceExhausted (over-commit), FailedPrecondition (whole/share mix,
// already admitted), InvalidArgument (unknown card, duplicate share), name
// the card and the amounts, and change nothing.
#ifndef GCUSHARE_DRA_DRIVER_SHARE_LEDGER_H_
#define GCUSHARE_DRA_DRIVER_SHARE_LEDGER_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "dra-driver/allocated_claim.h"
#include "efml/card.h"
#include "status/status.h"

namespace gcushare::dra {

// Whether `result` is a share of a card of `card_millibytes` (see above).
bool IsShare(const AllocatedResult& result, uint64_t card_millibytes);

// What a card's holders use now.
struct CardUsage {
  uint64_t total_millibytes = 0;
  uint64_t held_millibytes = 0;  // Whole card: total_millibytes.
  bool whole = false;            // Held whole by one claim.
  size_t shares = 0;             // Share holds.
  std::set<std::string> claims;  // UIDs of the claims holding it.

  friend bool operator==(const CardUsage&, const CardUsage&) = default;
};

class ShareLedger {
 public:
  // The cards and their memory.
  explicit ShareLedger(const efml::Inventory& inventory);

  Status Admit(const std::string& claim_uid,
               const std::vector<AllocatedResult>& results);

  // Drops every hold of the claim; unknown claims are ignored.
  void Release(const std::string& claim_uid);

  bool Holds(const std::string& claim_uid) const;

  // Every card of the inventory, by index.
  std::map<uint32_t, CardUsage> Usage() const;

 private:
  struct Hold {
    uint32_t card = 0;
    std::optional<std::string> share_id;
    uint64_t millibytes = 0;
    bool whole = false;
  };
  std::map<uint32_t, uint64_t> card_millibytes_;
  std::map<std::string, std::vector<Hold>> holds_;  // By claim uid.
};

}  // namespace gcushare::dra

#endif  // GCUSHARE_DRA_DRIVER_SHARE_LEDGER_H_
