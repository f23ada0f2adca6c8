// Fuzzes resource quantity parsing (limits of enflame.com/gcu-memory and
// gcu-count): a value that parses must print back to a quantity that
// parses to the same value.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "contract/quantity.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  gcushare::StatusOr<uint64_t> value =
      gcushare::contract::ParseIntegerQuantity(text);
  if (!value.ok()) return 0;
  gcushare::StatusOr<uint64_t> again =
      gcushare::contract::ParseIntegerQuantity(std::to_string(*value));
  if (!again.ok() || *again != *value) __builtin_trap();
  return 0;
}
