// Fuzzes the node card layout (the enflame.com/gcu-devices annotation):
// whatever decodes must encode to text that decodes to the same cards.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "contract/annotations.h"

namespace contract = gcushare::contract;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  gcushare::StatusOr<std::vector<contract::NodeCard>> cards =
      contract::DecodeNodeCards(text);
  if (!cards.ok()) return 0;
  gcushare::StatusOr<std::vector<contract::NodeCard>> again =
      contract::DecodeNodeCards(contract::EncodeNodeCards(*cards));
  if (!again.ok() || *again != *cards) __builtin_trap();
  return 0;
}
