// Fuzzes the DRA driver's ResourceClaim parsing (dra-driver/
// allocated_claim.h): the input is a claim as the API server would send
// it. A claim that parses must name its cards consistently, build a CDI
// spec that passes the validator (or refuse with an error), and go through
// the share ledger without crashing.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "contract/memory_unit.h"
#include "dra-driver/allocated_claim.h"
#include "dra-driver/claim_cdi.h"
#include "dra-driver/share_ledger.h"
#include "efml/card.h"

namespace dra = gcushare::dra;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  gcushare::StatusOr<dra::AllocatedClaim> claim =
      dra::ParseAllocatedClaimJson(text, "demo", "c1", "uid-1", "node-1");
  if (!claim.ok()) return 0;
  if (claim->uid != "uid-1" || claim->results.size() > 32) __builtin_trap();
  for (const dra::AllocatedResult& result : claim->results) {
    if (result.pool != "node-1" ||
        result.device != "gcu-" + std::to_string(result.card_index) ||
        result.request.empty() ||
        (result.share_id && result.share_id->empty())) {
      __builtin_trap();
    }
  }
  gcushare::efml::Inventory inventory;
  for (uint32_t i = 0; i < 8; ++i) {
    gcushare::efml::Card card;
    card.index = i;
    card.uuid = "GCU-" + std::to_string(i);
    card.memory_mib = 16384;
    card.device.path = gcushare::efml::DefaultDevicePath(i);
    inventory.cards.push_back(card);
  }
  if (!claim->results.empty()) {
    gcushare::StatusOr<gcushare::cdi::Spec> spec = dra::BuildClaimSpec(
        *claim, inventory, gcushare::contract::MemoryUnit());
    if (spec.ok() && spec->devices.size() != claim->results.size()) {
      __builtin_trap();
    }
  }
  dra::ShareLedger ledger(inventory);
  if (ledger.Admit(claim->uid, claim->results).ok()) {
    for (const auto& [index, usage] : ledger.Usage()) {
      if (usage.held_millibytes > usage.total_millibytes) __builtin_trap();
    }
  }
  return 0;
}
