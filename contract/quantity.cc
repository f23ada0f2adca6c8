#include "contract/quantity.h"

#include <cctype>
#include <cstdint>
#include <limits>
#include <string>

namespace gcushare::contract {
namespace {

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

Status Bad(std::string_view text, std::string_view why) {
  return InvalidArgumentError("quantity \"" + std::string(text) +
                              "\": " + std::string(why));
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

}  // namespace

StatusOr<uint64_t> ParseIntegerQuantity(std::string_view text) {
  std::string_view s = text;
  if (s.empty()) return Bad(text, "empty");
  bool negative = false;
  if (s[0] == '+' || s[0] == '-') {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }

  // Number part: digits with an optional fraction.
  size_t i = 0;
  std::string digits;
  int64_t frac_digits = 0;
  bool seen_dot = false;
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (IsDigit(c)) {
      digits += c;
      if (seen_dot) ++frac_digits;
    } else if (c == '.' && !seen_dot) {
      seen_dot = true;
    } else {
      break;
    }
  }
  if (digits.empty()) return Bad(text, "no digits");
  std::string_view suffix = s.substr(i);

  // Decimal exponent from "e<n>"/"E<n>" or from the suffix. Every term is
  // bounded (int32 exponent, digits no longer than the text), so the sums
  // below stay far inside int64.
  int64_t exp10 = -frac_digits;
  int64_t exp2 = 0;
  if (suffix.size() > 1 && (suffix[0] == 'e' || suffix[0] == 'E') &&
      (IsDigit(suffix[1]) || suffix[1] == '+' || suffix[1] == '-')) {
    StatusOr<int64_t> exponent = ParseExponent(text, suffix.substr(1));
    if (!exponent.ok()) return exponent.status();
    exp10 += *exponent;
  } else if (!suffix.empty()) {
    bool found = false;
    for (const Suffix& candidate : kSuffixes) {
      if (candidate.text == suffix) {
        (candidate.base == 2 ? exp2 : exp10) += candidate.exponent;
        found = true;
        break;
      }
    }
    if (!found)
      return Bad(text, "unknown suffix \"" + std::string(suffix) + "\"");
  }

  size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos) return uint64_t{0};  // Also "-0".
  if (negative) return Bad(text, "negative");
  digits = digits.substr(first);

  // Strip trailing zeros into the exponent, then scale exactly.
  size_t last = digits.find_last_not_of('0');
  const int64_t trailing = static_cast<int64_t>(digits.size() - last - 1);
  if (exp10 < 0) {
    const int64_t strip = trailing < -exp10 ? trailing : -exp10;
    digits.resize(digits.size() - static_cast<size_t>(strip));
    exp10 += strip;
  }
  if (exp10 < 0) return Bad(text, "not a whole number");
  // Past 20 digits or a factor of 10^20 (2^64) every non-zero value is too
  // large: check before looping so an exponent of 2^31 costs nothing.
  if (digits.size() > 20 || exp10 > 20 || exp2 > 64) {
    return Bad(text, "too large");
  }
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  uint64_t value = 0;
  for (char c : digits) {
    uint64_t d = static_cast<uint64_t>(c - '0');
    if (value > (kMax - d) / 10) return Bad(text, "too large");
    value = value * 10 + d;
  }
  for (int64_t k = 0; k < exp10; ++k) {
    if (value > kMax / 10) return Bad(text, "too large");
    value *= 10;
  }
  for (int64_t k = 0; k < exp2; ++k) {
    if (value > kMax / 2) return Bad(text, "too large");
    value *= 2;
  }
  return value;
}

}  // namespace gcushare::contract
