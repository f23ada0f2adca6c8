#include "dra-driver/share_ledger.h"

#include <utility>

#include "dra-driver/memory_quantity.h"

namespace gcushare::dra {
namespace {

std::string Mib(uint64_t millibytes) {
  // Exact when whole; otherwise MiB with the rest as a fraction of 1000.
  return std::to_string(MibOfMillibytes(millibytes)) + " MiB";
}

}  // namespace

bool IsShare(const AllocatedResult& result, uint64_t card_millibytes) {
  return result.share_id.has_value() ||
         (result.consumed_millibytes.has_value() &&
          *result.consumed_millibytes < card_millibytes);
}

ShareLedger::ShareLedger(const efml::Inventory& inventory) {
  for (const efml::Card& card : inventory.cards) {
    card_millibytes_[card.index] = MillibytesOfMib(card.memory_mib);
  }
}

Status ShareLedger::Admit(const std::string& claim_uid,
                          const std::vector<AllocatedResult>& results) {
  if (holds_.count(claim_uid) != 0) {
    return FailedPreconditionError("claim uid " + claim_uid +
                                   " already holds cards");
  }
  std::map<uint32_t, CardUsage> usage = Usage();
  std::vector<Hold> holds;
  std::set<std::pair<uint32_t, std::string>> shares_seen;
  for (const AllocatedResult& result : results) {
    auto card = card_millibytes_.find(result.card_index);
    const std::string name = "card " + std::to_string(result.card_index);
    if (card == card_millibytes_.end()) {
      return InvalidArgumentError(result.device + ": no " + name +
                                  " on this node");
    }
    Hold hold;
    hold.card = result.card_index;
    hold.share_id = result.share_id;
    hold.whole = !IsShare(result, card->second);
    hold.millibytes = hold.whole
                          ? card->second
                          : result.consumed_millibytes.value_or(card->second);
    CardUsage& use = usage[hold.card];
    if (hold.whole) {
      if (!use.claims.empty() || use.shares != 0 || use.whole) {
        return FailedPreconditionError(
            name + " is already held (" + std::to_string(use.claims.size()) +
            " claim(s), " + Mib(use.held_millibytes) +
            "): a whole-card result cannot share it");
      }
    } else {
      if (use.whole) {
        return FailedPreconditionError(
            name + " is held whole by another claim: a share of " +
            Mib(hold.millibytes) + " cannot join it");
      }
      if (!shares_seen.emplace(hold.card, hold.share_id.value_or("")).second) {
        return InvalidArgumentError(name + ": share \"" +
                                    hold.share_id.value_or("") +
                                    "\" appears twice in the claim's results");
      }
      if (hold.millibytes > card->second - use.held_millibytes) {
        return ResourceExhaustedError(
            name + " over-committed: " + Mib(hold.millibytes) + " asked, " +
            Mib(use.held_millibytes) + " of " + Mib(card->second) +
            " already held by " + std::to_string(use.claims.size()) +
            " claim(s)");
      }
    }
    use.held_millibytes += hold.millibytes;
    use.whole = use.whole || hold.whole;
    use.shares += hold.whole ? 0 : 1;
    use.claims.insert(claim_uid);
    holds.push_back(std::move(hold));
  }
  holds_[claim_uid] = std::move(holds);
  return OkStatus();
}

void ShareLedger::Release(const std::string& claim_uid) {
  holds_.erase(claim_uid);
}

bool ShareLedger::Holds(const std::string& claim_uid) const {
  return holds_.count(claim_uid) != 0;
}

std::map<uint32_t, CardUsage> ShareLedger::Usage() const {
  std::map<uint32_t, CardUsage> usage;
  for (const auto& [index, total] : card_millibytes_) {
    usage[index].total_millibytes = total;
  }
  for (const auto& [uid, holds] : holds_) {
    for (const Hold& hold : holds) {
      CardUsage& use = usage[hold.card];
      use.held_millibytes += hold.millibytes;
      use.whole = use.whole || hold.whole;
      use.shares += hold.whole ? 0 : 1;
      use.claims.insert(uid);
    }
  }
  return usage;
}

}  // namespace gcushare::dra
