#include "tests/peers/dra_scheduler/quantity.h"

#include <algorithm>
#include <cctype>

namespace gcushare::dra_scheduler {
namespace {

using Nanos = Quantity::Nanos;

constexpr Nanos kNanosPerUnit = 1000000000;
constexpr Nanos kNanosPerMilli = 1000000;
// |value| past 10^27 units (10^36 nanos) is refused: far beyond any
// capacity, and it keeps every sum of two quantities inside __int128.
const Nanos kMaxNanos = [] {
  Nanos n = 1;
  for (int i = 0; i < 36; ++i) n *= 10;
  return n;
}();

struct Suffix {
  std::string_view text;
  int base;      // 10 or 2.
  int exponent;  // Power of the base.
};

constexpr Suffix kSuffixes[] = {
    {"Ki", 2, 10}, {"Mi", 2, 20}, {"Gi", 2, 30}, {"Ti", 2, 40}, {"Pi", 2, 50},
    {"Ei", 2, 60}, {"n", 10, -9}, {"u", 10, -6}, {"m", 10, -3}, {"k", 10, 3},
    {"M", 10, 6},  {"G", 10, 9},  {"T", 10, 12}, {"P", 10, 15}, {"E", 10, 18},
};

Status Bad(std::string_view text, std::string_view why) {
  return InvalidArgumentError("quantity \"" + std::string(text) +
                              "\": " + std::string(why));
}

std::string Digits(Nanos value) {
  if (value == 0) return "0";
  std::string out;
  while (value > 0) {
    out += static_cast<char>('0' + static_cast<int>(value % 10));
    value /= 10;
  }
  std::reverse(out.begin(), out.end());
  return out;
}

// Ceiling division for a non-negative divisor.
Nanos CeilDiv(Nanos value, Nanos divisor) {
  Nanos q = value / divisor;
  if (value % divisor != 0 && value > 0) ++q;
  return q;
}

std::string DecimalSuffix(int exponent, QuantityFormat format) {
  if (format == QuantityFormat::kDecimalSI) {
    switch (exponent) {
      case -9:
        return "n";
      case -6:
        return "u";
      case -3:
        return "m";
      case 0:
        return "";
      case 3:
        return "k";
      case 6:
        return "M";
      case 9:
        return "G";
      case 12:
        return "T";
      case 15:
        return "P";
      case 18:
        return "E";
    }
  }
  if (exponent == 0) return "";
  return "e" + std::to_string(exponent);
}

}  // namespace

StatusOr<Quantity> Quantity::Parse(std::string_view text) {
  std::string_view s = text;
  if (s.empty()) return Bad(text, "empty");
  bool negative = false;
  if (s[0] == '+' || s[0] == '-') {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  // Mantissa: digits, optionally '.' and more digits.
  Nanos mantissa = 0;
  int fraction_digits = 0;
  int significant = 0;
  bool any_digit = false;
  bool seen_dot = false;
  size_t i = 0;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      any_digit = true;
      if (mantissa != 0 || c != '0') ++significant;
      if (significant > 30) return Bad(text, "too many digits");
      mantissa = mantissa * 10 + (c - '0');
      if (seen_dot) ++fraction_digits;
    } else if (c == '.' && !seen_dot) {
      seen_dot = true;
    } else {
      break;
    }
  }
  if (!any_digit) return Bad(text, "no digits");
  const std::string_view suffix = s.substr(i);

  int exp10 = -fraction_digits;
  int exp2 = 0;
  QuantityFormat format = QuantityFormat::kDecimalSI;
  bool found = suffix.empty();
  for (const Suffix& candidate : kSuffixes) {
    if (found) break;
    if (candidate.text == suffix) {
      found = true;
      if (candidate.base == 2) {
        exp2 = candidate.exponent;
        format = QuantityFormat::kBinarySI;
      } else {
        exp10 += candidate.exponent;
      }
    }
  }
  if (!found) {
    // An exponent: e<int> or E<int>.
    if (suffix.size() < 2 || (suffix[0] != 'e' && suffix[0] != 'E')) {
      return Bad(text, "unknown suffix \"" + std::string(suffix) + "\"");
    }
    std::string_view e = suffix.substr(1);
    bool e_negative = false;
    if (e[0] == '+' || e[0] == '-') {
      e_negative = e[0] == '-';
      e.remove_prefix(1);
    }
    if (e.empty() || e.size() > 3 ||
        !std::all_of(e.begin(), e.end(), [](char c) {
          return std::isdigit(static_cast<unsigned char>(c));
        })) {
      return Bad(text, "malformed exponent \"" + std::string(suffix) + "\"");
    }
    const int value = std::stoi(std::string(e));
    exp10 += e_negative ? -value : value;
    format = QuantityFormat::kDecimalExponent;
  }

  // nanos = mantissa * 2^exp2 * 10^(exp10 + 9), rounded up to 1n.
  Nanos value = mantissa;
  for (int k = 0; k < exp2; ++k) {
    if (value > kMaxNanos) return Bad(text, "too large");
    value *= 2;
  }
  int scale = exp10 + 9;
  while (scale > 0 && value != 0) {
    if (value > kMaxNanos) return Bad(text, "too large");
    value *= 10;
    --scale;
  }
  if (scale < 0) {
    Nanos divisor = 1;
    for (; scale < 0; ++scale) {
      if (divisor > kMaxNanos) {
        divisor = 0;  // Below 1n: rounds up to 1n.
        break;
      }
      divisor *= 10;
    }
    value = divisor == 0 ? (value == 0 ? 0 : 1) : CeilDiv(value, divisor);
  }
  if (value > kMaxNanos) return Bad(text, "too large");
  return Quantity(negative ? -value : value, format);
}

Quantity Quantity::FromInt(int64_t value, QuantityFormat format) {
  return Quantity(static_cast<Nanos>(value) * kNanosPerUnit, format);
}

Quantity Quantity::FromMilli(int64_t milli, QuantityFormat format) {
  return Quantity(static_cast<Nanos>(milli) * kNanosPerMilli, format);
}

Quantity Quantity::FromNanos(Nanos nanos, QuantityFormat format) {
  return Quantity(nanos, format);
}

Nanos Quantity::CeilValue() const { return CeilDiv(nanos_, kNanosPerUnit); }

Nanos Quantity::CeilMilliValue() const {
  return CeilDiv(nanos_, kNanosPerMilli);
}

bool Quantity::IsWholeMilli() const { return nanos_ % kNanosPerMilli == 0; }

Quantity Quantity::Plus(const Quantity& other) const {
  return Quantity(nanos_ + other.nanos_, IsZero() ? other.format_ : format_);
}

int Quantity::Compare(const Quantity& other) const {
  if (nanos_ < other.nanos_) return -1;
  return nanos_ > other.nanos_ ? 1 : 0;
}

std::string Quantity::ToString() const {
  if (nanos_ == 0) return "0";
  const bool negative = nanos_ < 0;
  const Nanos magnitude = negative ? -nanos_ : nanos_;
  const std::string sign = negative ? "-" : "";

  QuantityFormat format = format_;
  if (format == QuantityFormat::kBinarySI &&
      (magnitude < 1024 * kNanosPerUnit || magnitude % kNanosPerUnit != 0)) {
    format = QuantityFormat::kDecimalSI;  // No rounding, no fraction.
  }
  if (format == QuantityFormat::kBinarySI) {
    Nanos value = magnitude / kNanosPerUnit;
    int times = 0;
    while (times < 6 && value % 1024 == 0) {
      value /= 1024;
      ++times;
    }
    static constexpr const char* kBinary[] = {"",   "Ki", "Mi", "Gi",
                                              "Ti", "Pi", "Ei"};
    return sign + Digits(value) + kBinary[times];
  }

  // Decimal: the shortest mantissa with an exponent that is a multiple of 3.
  Nanos mantissa = magnitude;
  int exponent = -9;
  while (mantissa % 10 == 0) {
    mantissa /= 10;
    ++exponent;
  }
  const int rest = ((exponent % 3) + 3) % 3;
  for (int k = 0; k < rest; ++k) {
    mantissa *= 10;
    --exponent;
  }
  return sign + Digits(mantissa) + DecimalSuffix(exponent, format);
}

}  // namespace gcushare::dra_scheduler
