// Fuzzes card list parsing ("2,3", the gcu-device-id value): whatever
// parses must join back to text that parses to the same cards.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "contract/annotations.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  gcushare::StatusOr<std::vector<uint32_t>> cards =
      gcushare::contract::ParseCardList(text);
  if (!cards.ok()) return 0;
  gcushare::StatusOr<std::vector<uint32_t>> again =
      gcushare::contract::ParseCardList(
          gcushare::contract::JoinCardList(*cards));
  if (!again.ok() || *again != *cards) __builtin_trap();
  return 0;
}
