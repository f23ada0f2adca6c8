// Fuzzes resource quantity parsing (contract/quantity.h): the integer
// reader (limits of enflame.com/gcu-memory and gcu-count) and the milli
// reader (the extender's host CPU and memory, the DRA driver's
// capacities), which share one decomposition of the text.
//
// Checks: a value that parses prints back to a quantity that parses to the
// same value; the milli reader never gives a negative or wrapped value;
// where both readers read a whole number they agree (milli-units are 1000
// times the integer), and a malformed or negative text is refused by both
// alike.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "contract/quantity.h"

namespace {

using gcushare::StatusCode;
using gcushare::StatusOr;
using gcushare::contract::MilliQuantity;
using gcushare::contract::ParseIntegerQuantity;
using gcushare::contract::ParseMilliQuantity;

constexpr uint64_t kMaxWholeMilli =
    static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) / 1000;

void Check(bool condition) {
  if (!condition) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const StatusOr<uint64_t> value = ParseIntegerQuantity(text);
  const StatusOr<MilliQuantity> milli = ParseMilliQuantity(text);

  if (value.ok()) {
    const StatusOr<uint64_t> again =
        ParseIntegerQuantity(std::to_string(*value));
    Check(again.ok() && *again == *value);
    // A whole number within int64 milli-units reads the same in both.
    if (*value <= kMaxWholeMilli) {
      Check(milli.ok() && milli->exact &&
            static_cast<uint64_t>(milli->milli) == *value * 1000);
    } else {
      Check(!milli.ok() && milli.status().code() == StatusCode::kOutOfRange);
    }
  }
  if (milli.ok()) {
    Check(milli->milli >= 0);
    Check(milli->exact || milli->milli > 0);  // Rounded up: never to zero.
    const StatusOr<MilliQuantity> again =
        ParseMilliQuantity(std::to_string(milli->milli) + "m");
    Check(again.ok() && again->exact && again->milli == milli->milli);
    // An exact whole number of units is what the integer reader reads.
    if (milli->exact && milli->milli % 1000 == 0) {
      Check(value.ok() && *value * 1000 == static_cast<uint64_t>(milli->milli));
    }
    // Inexact: not a whole number for the integer reader.
    if (!milli->exact) Check(!value.ok());
  }
  // A refusal for the text itself (malformed, negative) is the same in
  // both.
  if (!milli.ok() && milli.status().code() == StatusCode::kInvalidArgument) {
    Check(!value.ok() && value.status() == milli.status());
  }
  return 0;
}
