#include "contract/memory_unit.h"

#include <limits>

namespace gcushare::contract {

std::string_view ValidMemoryUnits() { return "1, 0.1, 0.01, 0.001"; }

StatusOr<MemoryUnit> MemoryUnit::Parse(std::string_view text) {
  if (text == "1") return MemoryUnit(1000);
  if (text == "0.1") return MemoryUnit(100);
  if (text == "0.01") return MemoryUnit(10);
  if (text == "0.001") return MemoryUnit(1);
  return InvalidArgumentError("unknown memory unit \"" + std::string(text) +
                              "\" (valid: " + std::string(ValidMemoryUnits()) +
                              ", in GiB)");
}

std::string MemoryUnit::ToString() const {
  switch (thousandths_gib_) {
    case 1000:
      return "1";
    case 100:
      return "0.1";
    case 10:
      return "0.01";
    default:
      return "0.001";
  }
}

// One unit is thousandths_gib_ * 1024 / 1000 MiB; keep everything in
// integers by scaling by 1000, in 128 bits so no product wraps.
uint64_t MemoryUnit::UnitsInMib(uint64_t mib) const {
  // At most mib * 1000 / 1024: fits.
  return static_cast<uint64_t>(static_cast<unsigned __int128>(mib) * 1000 /
                               (uint64_t{thousandths_gib_} * 1024));
}

uint64_t MemoryUnit::MibOfUnits(uint64_t units) const {
  const unsigned __int128 mib =
      static_cast<unsigned __int128>(units) * thousandths_gib_ * 1024 / 1000;
  return mib > std::numeric_limits<uint64_t>::max()
             ? std::numeric_limits<uint64_t>::max()
             : static_cast<uint64_t>(mib);
}

}  // namespace gcushare::contract
