// An exact Kubernetes resource quantity (apimachinery resource.Quantity),
// for device capacities, capacity requests and consumed capacity.
//
// Parse accepts what ParseQuantity accepts: an optional sign, digits with an
// optional fraction, and one suffix: none, decimal SI (n u m k M G T P E),
// binary SI (Ki Mi Gi Ti Pi Ei) or an exponent (e3, E-2). Values are kept in
// nano units and, like apimachinery, rounded up (away from zero) to 1n.
// The suffix kind sets the format (BinarySI, DecimalSI, DecimalExponent),
// which ToString() uses to write the canonical form apimachinery writes:
//   "16Gi", "1536Mi" (1.5Gi), "107374182400m" (0.1Gi), "1k" (1000), "512"
//   (0.5Ki: binary values below 1024 or with a fraction go decimal).
//
// A value type; thread-compatible. Parse never throws; bad text is
// InvalidArgument naming the text.
#ifndef GCUSHARE_TESTS_PEERS_DRA_SCHEDULER_QUANTITY_H_
#define GCUSHARE_TESTS_PEERS_DRA_SCHEDULER_QUANTITY_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "status/status.h"

namespace gcushare::dra_scheduler {

enum class QuantityFormat { kDecimalSI, kBinarySI, kDecimalExponent };

class Quantity {
 public:
  using Nanos = __int128;

  Quantity() = default;  // Zero, DecimalSI.

  static StatusOr<Quantity> Parse(std::string_view text);
  // `value` whole units / `milli` thousandths, in `format`.
  static Quantity FromInt(int64_t value, QuantityFormat format);
  static Quantity FromMilli(int64_t milli, QuantityFormat format);
  static Quantity FromNanos(Nanos nanos, QuantityFormat format);

  // The canonical serialisation.
  std::string ToString() const;

  Nanos nanos() const { return nanos_; }
  QuantityFormat format() const { return format_; }
  bool IsZero() const { return nanos_ == 0; }
  // Whole units, rounded up (Quantity.Value()); milli units, rounded up
  // (Quantity.MilliValue()).
  Nanos CeilValue() const;
  Nanos CeilMilliValue() const;
  // Whether the value is a whole number of milli units.
  bool IsWholeMilli() const;

  // q.Add(y): the sum keeps this format, or y's when this is zero.
  Quantity Plus(const Quantity& other) const;

  // -1, 0, 1 by value (formats do not matter).
  int Compare(const Quantity& other) const;
  bool operator==(const Quantity& other) const { return Compare(other) == 0; }
  bool operator!=(const Quantity& other) const { return Compare(other) != 0; }
  bool operator<(const Quantity& other) const { return Compare(other) < 0; }
  bool operator<=(const Quantity& other) const { return Compare(other) <= 0; }
  bool operator>(const Quantity& other) const { return Compare(other) > 0; }
  bool operator>=(const Quantity& other) const { return Compare(other) >= 0; }

 private:
  Quantity(Nanos nanos, QuantityFormat format)
      : nanos_(nanos), format_(format) {}

  Nanos nanos_ = 0;
  QuantityFormat format_ = QuantityFormat::kDecimalSI;
};

}  // namespace gcushare::dra_scheduler

#endif  // GCUSHARE_TESTS_PEERS_DRA_SCHEDULER_QUANTITY_H_
