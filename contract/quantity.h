// Kubernetes resource quantities (apimachinery's resource.Quantity grammar),
// read by one parser core: DecomposeQuantity() takes the text apart into
// sign, significant digits and powers of 10 and 2; ParseIntegerQuantity()
// and ParseMilliQuantity() read the value from those parts.
//
// The grammar: an optional sign, digits with an optional fraction ("1.5",
// ".5", "5."), and one suffix: none, n u m k M G T P E (powers of ten),
// Ki Mi Gi Ti Pi Ei (powers of two), or a decimal exponent e<n>/E<n>
// ("1e3", "1E+3", "15e-1").
//
// ParseIntegerQuantity, for extended resources (enflame.com/gcu-memory,
// enflame.com/gcu-count), which must be whole numbers: "4", "+4", "4k",
// "2Ki", "1e3", "1E+3", "1M", "2000m" (2), "2000000u", "1000000000n",
// "0.5Ki" (512); "1500m" is rejected (1.5).
//
// ParseMilliQuantity, for milli-units: CPU in millicores, memory in bytes
// rounded up, DRA capacities in exact millibytes. It gives the value
// rounded UP to a whole milli-unit, as Quantity.MilliValue() does (ceil of
// value * 1000: "100u" CPU is 1m, as kube-scheduler counts it), and says
// whether that was exact; a caller that needs exact milli-units refuses an
// inexact one, a caller counting as Kubernetes does takes the rounded value
// (Quantity.Value() is ceil(milli / 1000): "1500m" bytes are 2).
//
// Negative zero ("-0", "-0.0e5") is zero, as apimachinery reads it; any
// other negative value is refused.
//
// Extremes: a decimal exponent must fit an int32 (apimachinery keeps it as
// int32 and silently wraps a larger one: "1e4294967296" would read as 1
// there, so it is an error here, never a wrapped value). Zero is zero
// whatever its exponent within that range ("0e2147483647"). Huge digit runs
// are read in linear time. Pure functions; never overflow (UBSan-clean at
// every input); thread-safe.
//
// The stand-ins under tests/peers/ keep their own quantity readers on
// purpose: an independent oracle must not share the product's bugs.
#ifndef GCUSHARE_CONTRACT_QUANTITY_H_
#define GCUSHARE_CONTRACT_QUANTITY_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "status/status.h"

namespace gcushare::contract {

// A quantity's text taken apart. Its value is
// (negative ? -1 : 1) * significand * 10^exp10 * 2^exp2.
struct QuantityParts {
  bool negative = false;
  // The significant digits, without leading or trailing zeros (those
  // moved into exp10): "1500m" is "15" with exp10 -1. Empty for zero.
  std::string significand;
  // Within the int32 exponent, the fraction's length and the trailing
  // zeros: far inside int64.
  int64_t exp10 = 0;
  int64_t exp2 = 0;  // 0, 10, ..., 60 (Ki .. Ei).

  bool is_zero() const { return significand.empty(); }
};

// The parts of `text`, or InvalidArgument naming the text and why: empty,
// no digits, unknown suffix, malformed exponent, exponent out of range
// (int32). Linear in the length of `text`.
StatusOr<QuantityParts> DecomposeQuantity(std::string_view text);

// The value of `text` as a non-negative integer, or InvalidArgument naming
// the text and why (malformed, not a whole number, negative, too large:
// past 18446744073709551615).
StatusOr<uint64_t> ParseIntegerQuantity(std::string_view text);

// A quantity in milli-units.
struct MilliQuantity {
  // ceil(value * 1000), as Quantity.MilliValue(): "100u" is 1, "1.5" 1500.
  int64_t milli = 0;
  // Whether `milli` is the value exactly (false: the text was finer than a
  // milli-unit, "100u", "0.5m", and `milli` was rounded up).
  bool exact = true;
};

// The value of `text` in milli-units, rounded up (see MilliQuantity).
// InvalidArgument naming the text and why for malformed text or a negative
// value; OutOfRange ("too large") when the milli-units pass int64
// (9223372036854775807, about 9.2e15 units).
StatusOr<MilliQuantity> ParseMilliQuantity(std::string_view text);

}  // namespace gcushare::contract

#endif  // GCUSHARE_CONTRACT_QUANTITY_H_
