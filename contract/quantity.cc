#include "contract/quantity.h"

#include <cctype>
#include <cstdint>
#include <limits>
#include <string>

namespace gcushare::contract {
namespace {

using Uint128 = unsigned __int128;

struct Suffix {
  std::string_view text;
  uint64_t base;  // 10 or 2.
  int exponent;   // Power of base; negative only for "m", "u", "n".
};

// apimachinery's suffix table (suffix.go): binary SI, decimal SI.
constexpr Suffix kSuffixes[] = {
    {"Ki", 2, 10}, {"Mi", 2, 20}, {"Gi", 2, 30}, {"Ti", 2, 40}, {"Pi", 2, 50},
    {"Ei", 2, 60}, {"n", 10, -9}, {"u", 10, -6}, {"m", 10, -3}, {"k", 10, 3},
    {"M", 10, 6},  {"G", 10, 9},  {"T", 10, 12}, {"P", 10, 15}, {"E", 10, 18},
};

constexpr int64_t kMinExponent = std::numeric_limits<int32_t>::min();
constexpr int64_t kMaxExponent = std::numeric_limits<int32_t>::max();
constexpr Uint128 kMaxUint64 = std::numeric_limits<uint64_t>::max();
constexpr Uint128 kMaxInt64 = std::numeric_limits<int64_t>::max();

std::string Quoted(std::string_view text) {
  return "quantity \"" + std::string(text) + "\": ";
}

Status Bad(std::string_view text, std::string_view why) {
  return InvalidArgumentError(Quoted(text) + std::string(why));
}

bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)); }

// The decimal exponent after "e"/"E": an optional sign and digits, within
// int32 (kMinExponent..kMaxExponent). Accumulates with a bound, so any digit
// run is safe.
StatusOr<int64_t> ParseExponent(std::string_view text, std::string_view e) {
  bool negative = false;
  if (!e.empty() && (e[0] == '+' || e[0] == '-')) {
    negative = e[0] == '-';
    e.remove_prefix(1);
  }
  if (e.empty()) return Bad(text, "malformed exponent");
  int64_t magnitude = 0;
  for (char c : e) {
    if (!IsDigit(c)) return Bad(text, "malformed exponent");
    magnitude = magnitude * 10 + (c - '0');
    if (magnitude > kMaxExponent + 1) {
      return Bad(text, "exponent out of range (int32)");
    }
  }
  int64_t value = negative ? -magnitude : magnitude;
  if (value < kMinExponent || value > kMaxExponent) {
    return Bad(text, "exponent out of range (int32)");
  }
  return value;
}

// ceil(|value| * 10^shift) of non-zero parts, when below 2^64.
struct Scaled {
  uint64_t value = 0;
  bool exact = true;       // No fraction was rounded up.
  bool too_large = false;  // Past 2^64 - 1 (value then unset).
};

// Reads the parts scaled by 10^shift in time linear in the significand:
// the digits before the decimal point (at most 20, or the value passes
// 10^20 > 2^64) as an integer, the fraction times 2^exp2 digit by digit.
// Every intermediate is below 10^20 * 2^60 < 2^127.
Scaled ScaleParts(const QuantityParts& parts, int64_t shift) {
  const std::string& digits = parts.significand;
  const int64_t length = static_cast<int64_t>(digits.size());
  const int64_t exp10 = parts.exp10 + shift;
  const Uint128 binary = Uint128{1} << parts.exp2;
  Scaled out;
  auto finish = [&out](Uint128 value) {
    if (value > kMaxUint64) {
      out.too_large = true;
    } else {
      out.value = static_cast<uint64_t>(value);
    }
    return out;
  };
  if (exp10 >= 0) {
    // The significand has no leading zero: the value is at least
    // 10^(length - 1 + exp10).
    if (length + exp10 > 20) {
      out.too_large = true;
      return out;
    }
    Uint128 value = 0;
    for (char c : digits) value = value * 10 + static_cast<Uint128>(c - '0');
    for (int64_t k = 0; k < exp10; ++k) value *= 10;
    return finish(value * binary);
  }
  // `places` digits after the decimal point: the significand's last ones
  // and, when it is shorter, leading zeros.
  const int64_t places = -exp10;
  const size_t whole_digits =
      static_cast<size_t>(length > places ? length - places : 0);
  const std::string_view whole(digits.data(), whole_digits);
  const std::string_view fraction =
      std::string_view(digits).substr(whole_digits);
  // fraction * 2^exp2 as a decimal number from its last digit: the digits
  // after the point must all be zero for an exact value, the carry past
  // them is the whole part. The carry stays below 2^exp2.
  Uint128 carry = 0;
  for (auto it = fraction.rbegin(); it != fraction.rend(); ++it) {
    const Uint128 product = static_cast<Uint128>(*it - '0') * binary + carry;
    if (product % 10 != 0) out.exact = false;
    carry = product / 10;
  }
  // The fraction's leading zeros; the carry (below 2^60) is gone after 19.
  for (int64_t k = static_cast<int64_t>(fraction.size());
       k < places && carry != 0; ++k) {
    if (carry % 10 != 0) out.exact = false;
    carry /= 10;
  }
  if (whole.size() > 20) {
    out.too_large = true;
    return out;
  }
  Uint128 value = 0;
  for (char c : whole) value = value * 10 + static_cast<Uint128>(c - '0');
  return finish(value * binary + carry + (out.exact ? 0 : 1));
}

}  // namespace

StatusOr<QuantityParts> DecomposeQuantity(std::string_view text) {
  std::string_view s = text;
  if (s.empty()) return Bad(text, "empty (no digits)");
  QuantityParts parts;
  if (s[0] == '+' || s[0] == '-') {
    parts.negative = s[0] == '-';
    s.remove_prefix(1);
  }

  // Number part: digits with an optional fraction. Leading zeros are not
  // kept; every fraction digit lowers the exponent.
  size_t i = 0;
  bool seen_digit = false;
  bool seen_dot = false;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (IsDigit(c)) {
      seen_digit = true;
      if (!parts.significand.empty() || c != '0') parts.significand += c;
      if (seen_dot) --parts.exp10;
    } else if (c == '.' && !seen_dot) {
      seen_dot = true;
    } else {
      break;
    }
  }
  if (!seen_digit) return Bad(text, "no digits");
  const std::string_view suffix = s.substr(i);

  // Decimal exponent from "e<n>"/"E<n>" or from the suffix. Every term is
  // bounded (int32 exponent, digits no longer than the text), so the sums
  // stay far inside int64.
  if (suffix.size() > 1 && (suffix[0] == 'e' || suffix[0] == 'E') &&
      (IsDigit(suffix[1]) || suffix[1] == '+' || suffix[1] == '-')) {
    StatusOr<int64_t> exponent = ParseExponent(text, suffix.substr(1));
    if (!exponent.ok()) return exponent.status();
    parts.exp10 += *exponent;
  } else if (!suffix.empty()) {
    bool found = false;
    for (const Suffix& candidate : kSuffixes) {
      if (candidate.text == suffix) {
        (candidate.base == 2 ? parts.exp2 : parts.exp10) += candidate.exponent;
        found = true;
        break;
      }
    }
    if (!found) {
      const bool bare_e = suffix == "e" || suffix == "E";
      return Bad(text,
                 "unknown suffix \"" + std::string(suffix) + "\"" +
                     (bare_e ? " (a malformed exponent: no digits)" : ""));
    }
  }

  // Trailing zeros move into the exponent.
  const size_t last = parts.significand.find_last_not_of('0');
  const size_t kept = last == std::string::npos ? 0 : last + 1;
  parts.exp10 += static_cast<int64_t>(parts.significand.size() - kept);
  parts.significand.resize(kept);
  if (parts.is_zero()) parts.exp10 = 0;
  return parts;
}

StatusOr<uint64_t> ParseIntegerQuantity(std::string_view text) {
  StatusOr<QuantityParts> parts = DecomposeQuantity(text);
  if (!parts.ok()) return parts.status();
  if (parts->is_zero()) return uint64_t{0};  // Also "-0".
  if (parts->negative) return Bad(text, "negative");
  const Scaled scaled = ScaleParts(*parts, 0);
  if (!scaled.exact) return Bad(text, "not a whole number");
  if (scaled.too_large) return Bad(text, "too large");
  return scaled.value;
}

StatusOr<MilliQuantity> ParseMilliQuantity(std::string_view text) {
  StatusOr<QuantityParts> parts = DecomposeQuantity(text);
  if (!parts.ok()) return parts.status();
  if (parts->is_zero()) return MilliQuantity{};  // Also "-0".
  if (parts->negative) return Bad(text, "negative");
  const Scaled scaled = ScaleParts(*parts, 3);
  if (scaled.too_large || scaled.value > kMaxInt64) {
    return OutOfRangeError(Quoted(text) + "too large");
  }
  return MilliQuantity{static_cast<int64_t>(scaled.value), scaled.exact};
}

}  // namespace gcushare::contract
