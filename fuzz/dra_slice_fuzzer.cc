// Fuzzes how the DRA driver reads a ResourceSlice the API server stored
// (dra-driver/slice_diff.h): the input is the stored slice's JSON, compared
// with the slice the driver would publish for two cards. Whatever the
// server sent, the comparison must not crash, a slice must equal itself,
// and the desired slice must never read as having dropped its own fields.

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string_view>

#include "dra-driver/slice_builder.h"
#include "dra-driver/slice_diff.h"

namespace dra = gcushare::dra;

namespace {

const nlohmann::json& Desired() {
  static const nlohmann::json desired = [] {
    gcushare::efml::Inventory inventory;
    for (uint32_t i = 0; i < 2; ++i) {
      gcushare::efml::Card card;
      card.index = i;
      card.uuid = "GCU-" + std::to_string(i);
      card.memory_mib = 16384;
      card.device.path = gcushare::efml::DefaultDevicePath(i);
      inventory.cards.push_back(card);
    }
    dra::SliceBuilderOptions options;
    options.node_name = "node-a";
    options.node_uid = "uid-1";
    options.driver_version = "0.1.0";
    options.card_model = "GCU";
    return dra::BuildSlices(inventory, options, 1).value().front();
  }();
  return desired;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  nlohmann::json stored =
      nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (stored.is_discarded()) return 0;
  (void)dra::SameSliceContent(Desired(), stored);
  (void)dra::FindDroppedFields(Desired(), stored);
  if (dra::FindDroppedFields(Desired(), Desired()).any()) __builtin_trap();
  return 0;
}
