// The memory unit of a sharing node: how much card memory one unit of
// enflame.com/gcu-memory stands for.
//
// Valid units are "1" (1 GiB, default), "0.1", "0.01" and "0.001" GiB. The
// device plugin takes one from --memory-unit and publishes it in the node
// annotation enflame.com/gcu-memory-unit; the extender reads it per node and
// never assumes one. Conversions are exact integer arithmetic on MiB.
//
// A value type; thread-compatible.
#ifndef GCUSHARE_CONTRACT_MEMORY_UNIT_H_
#define GCUSHARE_CONTRACT_MEMORY_UNIT_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "status/status.h"

namespace gcushare::contract {

class MemoryUnit {
 public:
  // 1 GiB.
  MemoryUnit() = default;

  // "1", "0.1", "0.01" or "0.001"; anything else is InvalidArgument with a
  // message listing the valid values.
  static StatusOr<MemoryUnit> Parse(std::string_view text);

  // The canonical string, as published and as GCUSHARE_MEMORY_UNIT.
  std::string ToString() const;

  // Whole units in `mib` MiB of card memory, rounded down (a card of
  // 16384 MiB is 16 units at "1" and 160 at "0.1"). Exact for every uint64
  // (no wrap on the way).
  uint64_t UnitsInMib(uint64_t mib) const;

  // MiB in `units` units, rounded down (40 units at "0.1" = 4096 MiB);
  // 2^64-1 when that many MiB pass a uint64 (never a wrapped number).
  uint64_t MibOfUnits(uint64_t units) const;

  friend bool operator==(MemoryUnit a, MemoryUnit b) {
    return a.thousandths_gib_ == b.thousandths_gib_;
  }

 private:
  explicit MemoryUnit(uint32_t thousandths_gib)
      : thousandths_gib_(thousandths_gib) {}
  uint32_t thousandths_gib_ = 1000;  // 1000, 100, 10 or 1.
};

// "1, 0.1, 0.01, 0.001": for --help texts and error messages.
std::string_view ValidMemoryUnits();

}  // namespace gcushare::contract

#endif  // GCUSHARE_CONTRACT_MEMORY_UNIT_H_
