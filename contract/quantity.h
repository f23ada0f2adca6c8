// Kubernetes resource quantities as integers, for extended resources.
//
// Extended resources (enflame.com/gcu-memory, enflame.com/gcu-count) must be
// whole numbers. ParseIntegerQuantity accepts the serialised forms a pod
// spec can carry for a whole number (apimachinery's resource.Quantity
// grammar): "4", "+4", "4k", "2Ki", "1e3", "1E+3", "1M", "2000m" (2),
// "2000000u", "1000000000n"; "1500m" is rejected (1.5). Negative zero
// ("-0", "-0.0e5") is zero, as apimachinery reads it.
//
// Extremes: the value must fit a uint64 (18446744073709551615); a decimal
// exponent must fit an int32 (apimachinery keeps it as int32 and silently
// wraps a larger one: "1e4294967296" would read as 1 there, so it is an
// error here, never a wrapped value). Zero is zero whatever its exponent
// within that range ("0e2147483647"). Huge digit runs are read in linear
// time. Pure function; never overflows (UBSan-clean at every input).
#ifndef GCUSHARE_CONTRACT_QUANTITY_H_
#define GCUSHARE_CONTRACT_QUANTITY_H_

#include <cstdint>
#include <string_view>

#include "status/status.h"

namespace gcushare::contract {

// The value of `text` as a non-negative integer, or InvalidArgument naming
// the text and why (malformed, fractional, negative, too large, exponent
// out of range).
StatusOr<uint64_t> ParseIntegerQuantity(std::string_view text);

}  // namespace gcushare::contract

#endif  // GCUSHARE_CONTRACT_QUANTITY_H_
