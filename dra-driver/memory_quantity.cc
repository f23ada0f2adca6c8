#include "dra-driver/memory_quantity.h"

#include <string>

#include "contract/quantity.h"

namespace gcushare::dra {

std::string FormatBytes(uint64_t bytes) {
  static constexpr const char* kSuffixes[] = {"",   "Ki", "Mi", "Gi",
                                              "Ti", "Pi", "Ei"};
  if (bytes < 1024) return std::to_string(bytes);
  int exponent = 0;
  while (exponent < 6 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++exponent;
  }
  return std::to_string(bytes) + kSuffixes[exponent];
}

uint64_t UnitBytes(contract::MemoryUnit unit) {
  // MibOfUnits(1000) is 1000 units in MiB: the unit in thousandths of a
  // GiB times 1024, exactly.
  const uint64_t thousandths = unit.MibOfUnits(1000) / 1024;
  const uint64_t milli_gib_bytes = thousandths * (uint64_t{1} << 30);
  return (milli_gib_bytes + 999) / 1000;
}

StatusOr<int64_t> ParseMilliValue(std::string_view text) {
  StatusOr<contract::MilliQuantity> milli = contract::ParseMilliQuantity(text);
  // Too large is InvalidArgument here, as every other refusal.
  if (!milli.ok()) return InvalidArgumentError(milli.status().message());
  if (!milli->exact) {
    return InvalidArgumentError("quantity \"" + std::string(text) +
                                "\": finer than a millibyte (a milli-unit)");
  }
  return milli->milli;
}

StatusOr<uint64_t> ParseMemoryMillibytes(std::string_view text) {
  StatusOr<int64_t> milli = ParseMilliValue(text);
  if (!milli.ok()) {
    return InvalidArgumentError("memory " + milli.status().message());
  }
  return static_cast<uint64_t>(*milli);
}

bool SameQuantity(std::string_view a, std::string_view b) {
  StatusOr<int64_t> left = ParseMilliValue(a);
  StatusOr<int64_t> right = ParseMilliValue(b);
  if (left.ok() && right.ok()) return *left == *right;
  return a == b;
}

}  // namespace gcushare::dra
