// Card memory as Kubernetes resource quantities: the ResourceSlices'
// capacity "memory" and its consumable-capacity request policy (written),
// and a claim's consumedCapacity.memory (read, as exact millibytes).
//
// The API server stores a quantity in canonical form: a whole number of
// bytes that is a multiple of 1024 is written with a binary suffix
// ("16Gi", "15000Mi", "1Ti"), any other whole number plainly
// ("107374183"), and a fractional one in milli-units ("107374182400m").
// FormatBytes() writes that canonical form, so that what the driver
// publishes reads back unchanged.
//
// Memory units and kube-apiserver 1.34-1.36: the request policy checks
// (validRange default/max a multiple of step from min) and the scheduler's
// rounding (consumable_capacity.go roundUpRange) both use
// Quantity.Value(), the amount rounded UP to a whole number; exact
// fractional arithmetic only arrives with the DRAFractionalCapacityRange
// gate (beta in 1.37). A fractional step such as 0.1 GiB (107374182.4
// bytes) therefore makes every default/max but the first multiple invalid.
// UnitBytes() is the unit rounded up to a whole byte (0.1 GiB ->
// 107374183), which both sides then treat exactly: a request of n units
// consumes n steps.
//
// Pure functions; thread-safe.
#ifndef GCUSHARE_DRA_DRIVER_MEMORY_QUANTITY_H_
#define GCUSHARE_DRA_DRIVER_MEMORY_QUANTITY_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "contract/memory_unit.h"
#include "status/status.h"

namespace gcushare::dra {

inline constexpr uint64_t kBytesPerMib = uint64_t{1} << 20;

// The canonical quantity of a whole number of bytes: "16Gi", "15000Mi",
// "107374183", "0".
std::string FormatBytes(uint64_t bytes);

// The memory unit in whole bytes, rounded up: "1" -> 1073741824,
// "0.1" -> 107374183, "0.01" -> 10737419, "0.001" -> 1073742.
uint64_t UnitBytes(contract::MemoryUnit unit);

// The value of a quantity in milli-units (a "16Gi" is 16 * 2^30 * 1000),
// exactly: contract::ParseMilliQuantity (the Kubernetes quantity grammar,
// contract/quantity.h), refusing what it would round. InvalidArgument for
// malformed text, a negative value, a value finer than a milli-unit or one
// past about 9.2e15 units.
StatusOr<int64_t> ParseMilliValue(std::string_view text);

// A claim's memory quantity in millibytes (1/1000 byte), exactly, as
// ParseMilliValue reads it; the error says "memory quantity ...".
// Millibytes keep any value the API server can write exact (a uint64 holds
// up to 16 PiB).
StatusOr<uint64_t> ParseMemoryMillibytes(std::string_view text);

inline constexpr uint64_t kMillibytesPerMib = uint64_t{1000} << 20;

// The card memory `mib` MiB in millibytes (mib below 2^44).
constexpr uint64_t MillibytesOfMib(uint64_t mib) {
  return mib * kMillibytesPerMib;
}

// Whole MiB in `millibytes`, rounded down (as MemoryUnit::MibOfUnits does:
// 0.4 GiB is 409 MiB).
constexpr uint64_t MibOfMillibytes(uint64_t millibytes) {
  return millibytes / kMillibytesPerMib;
}

// Whether two quantities are the same amount ("1Gi" and "1024Mi" are);
// texts that do not parse are compared as strings.
bool SameQuantity(std::string_view a, std::string_view b);

}  // namespace gcushare::dra

#endif  // GCUSHARE_DRA_DRIVER_MEMORY_QUANTITY_H_
