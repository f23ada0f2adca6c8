#include "dra-driver/memory_quantity.h"

#include <cctype>
#include <limits>
#include <optional>

namespace gcushare::dra {
namespace {

using Int128 = __int128;

constexpr Int128 kMaxMilli = std::numeric_limits<int64_t>::max();

Status Malformed(std::string_view text, std::string_view why) {
  return InvalidArgumentError("quantity \"" + std::string(text) +
                              "\": " + std::string(why));
}

// 10^exp or 2^exp as a multiplier, or 0 when it would overflow.
Int128 Power(int base, int exp) {
  Int128 result = 1;
  for (int i = 0; i < exp; ++i) {
    result *= base;
    if (result > kMaxMilli * 1000) return 0;
  }
  return result;
}

// The power of ten of a one-letter decimal suffix ("m" is -3, "k" 3), or
// nullopt for an unknown letter.
std::optional<int> DecimalSuffixExponent(char suffix) {
  switch (suffix) {
    case 'n':
      return -9;
    case 'u':
      return -6;
    case 'm':
      return -3;
    case 'k':
      return 3;
    case 'M':
      return 6;
    case 'G':
      return 9;
    case 'T':
      return 12;
    case 'P':
      return 15;
    case 'E':
      return 18;
    default:
      return std::nullopt;
  }
}

// Adds what the `suffix` after the number of `text` multiplies by to the
// exponents (value = number * 10^decimal * 2^binary): a binary suffix
// ("Ki".."Ei"), an exponent ("e3", "E-2") or a decimal suffix ("m", "k"..).
Status ReadSuffix(std::string_view text, std::string_view suffix,
                  int* decimal_exponent, int* binary_exponent) {
  if (suffix.empty()) return OkStatus();
  if (suffix.size() == 2 && suffix[1] == 'i') {
    const std::string_view kBinary = "KMGTPE";
    const size_t pos = kBinary.find(suffix[0]);
    if (pos == std::string_view::npos) return Malformed(text, "unknown suffix");
    *binary_exponent = 10 * static_cast<int>(pos + 1);
    return OkStatus();
  }
  if (suffix[0] == 'e' || suffix[0] == 'E') {
    std::string_view number = suffix.substr(1);
    bool negative = false;
    if (!number.empty() && (number[0] == '+' || number[0] == '-')) {
      negative = number[0] == '-';
      number.remove_prefix(1);
    }
    if (number.empty() || number.size() > 3) {
      return Malformed(text, "malformed exponent");
    }
    int exponent = 0;
    for (char c : number) {
      if (!std::isdigit(static_cast<unsigned char>(c))) {
        return Malformed(text, "malformed exponent");
      }
      exponent = exponent * 10 + (c - '0');
    }
    *decimal_exponent += negative ? -exponent : exponent;
    return OkStatus();
  }
  std::optional<int> decimal = std::nullopt;
  if (suffix.size() == 1) decimal = DecimalSuffixExponent(suffix[0]);
  if (!decimal.has_value()) return Malformed(text, "unknown suffix");
  *decimal_exponent += *decimal;
  return OkStatus();
}

}  // namespace

std::string FormatBytes(uint64_t bytes) {
  static constexpr const char* kSuffixes[] = {"",   "Ki", "Mi", "Gi",
                                              "Ti", "Pi", "Ei"};
  if (bytes < 1024) return std::to_string(bytes);
  int exponent = 0;
  while (exponent < 6 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++exponent;
  }
  return std::to_string(bytes) + kSuffixes[exponent];
}

uint64_t UnitBytes(contract::MemoryUnit unit) {
  // MibOfUnits(1000) is 1000 units in MiB: the unit in thousandths of a
  // GiB times 1024, exactly.
  const uint64_t thousandths = unit.MibOfUnits(1000) / 1024;
  const uint64_t milli_gib_bytes = thousandths * (uint64_t{1} << 30);
  return (milli_gib_bytes + 999) / 1000;
}

StatusOr<int64_t> ParseMilliValue(std::string_view text) {
  std::string_view rest = text;
  if (!rest.empty() && (rest[0] == '+' || rest[0] == '-')) {
    if (rest[0] == '-') return Malformed(text, "negative");
    rest.remove_prefix(1);
  }
  Int128 digits = 0;
  int fraction_digits = 0;
  int digit_count = 0;
  bool seen_point = false;
  size_t i = 0;
  for (; i < rest.size(); ++i) {
    const char c = rest[i];
    if (c == '.' && !seen_point) {
      seen_point = true;
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(c))) break;
    if (digits > kMaxMilli * 1000) return Malformed(text, "too large");
    digits = digits * 10 + (c - '0');
    ++digit_count;
    if (seen_point) ++fraction_digits;
  }
  if (digit_count == 0) return Malformed(text, "no digits");
  const std::string_view suffix = rest.substr(i);
  // value = digits * 10^-fraction_digits * multiplier; milli = value * 1000.
  Int128 numerator = digits * 1000;
  int decimal_exponent = -fraction_digits;
  int binary_exponent = 0;
  if (Status read =
          ReadSuffix(text, suffix, &decimal_exponent, &binary_exponent);
      !read.ok()) {
    return read;
  }
  if (digits == 0) return 0;
  const Int128 binary = Power(2, binary_exponent);
  if (binary == 0) return Malformed(text, "too large");
  numerator *= binary;
  if (numerator > kMaxMilli * 1000) return Malformed(text, "too large");
  if (decimal_exponent > 0) {
    const Int128 scale = Power(10, decimal_exponent);
    if (scale == 0) return Malformed(text, "too large");
    numerator *= scale;
  } else if (decimal_exponent < 0) {
    const Int128 scale = Power(10, -decimal_exponent);
    if (scale == 0 || numerator % scale != 0) {
      return Malformed(text, "finer than a millibyte (a milli-unit)");
    }
    numerator /= scale;
  }
  if (numerator > kMaxMilli) return Malformed(text, "too large");
  return static_cast<int64_t>(numerator);
}

StatusOr<uint64_t> ParseMemoryMillibytes(std::string_view text) {
  StatusOr<int64_t> milli = ParseMilliValue(text);
  if (!milli.ok()) {
    return InvalidArgumentError("memory " + milli.status().message());
  }
  return static_cast<uint64_t>(*milli);
}

bool SameQuantity(std::string_view a, std::string_view b) {
  StatusOr<int64_t> left = ParseMilliValue(a);
  StatusOr<int64_t> right = ParseMilliValue(b);
  if (left.ok() && right.ok()) return *left == *right;
  return a == b;
}

}  // namespace gcushare::dra
