#include "contract/quantity.h"

#include <cctype>
#include <limits>
#include <string>

namespace gcushare::contract {
namespace {

struct Suffix {
  std::string_view text;
  uint64_t base;  // 10 or 2.
  int exponent;   // Power of base; negative only for "m".
};

constexpr Suffix kSuffixes[] = {
    {"Ki", 2, 10}, {"Mi", 2, 20}, {"Gi", 2, 30}, {"Ti", 2, 40}, {"Pi", 2, 50},
    {"Ei", 2, 60}, {"m", 10, -3}, {"k", 10, 3},  {"M", 10, 6},  {"G", 10, 9},
    {"T", 10, 12}, {"P", 10, 15}, {"E", 10, 18},
};

Status Bad(std::string_view text, std::string_view why) {
  return InvalidArgumentError("quantity \"" + std::string(text) +
                              "\": " + std::string(why));
}

}  // namespace

StatusOr<uint64_t> ParseIntegerQuantity(std::string_view text) {
  std::string_view s = text;
  if (s.empty()) return Bad(text, "empty");
  if (s[0] == '+') s.remove_prefix(1);
  if (!s.empty() && s[0] == '-') return Bad(text, "negative");

  // Number part: digits with an optional fraction.
  size_t i = 0;
  std::string digits;
  int frac_digits = 0;
  bool seen_dot = false;
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (std::isdigit(static_cast<unsigned char>(c))) {
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

  // Decimal exponent from "e<n>"/"E<n>" or from the suffix.
  int exp10 = -frac_digits;
  int exp2 = 0;
  if (!suffix.empty() && (suffix[0] == 'e' || suffix[0] == 'E') &&
      suffix.size() > 1 &&
      (std::isdigit(static_cast<unsigned char>(suffix[1])) ||
       suffix[1] == '+' || suffix[1] == '-')) {
    std::string e(suffix.substr(1));
    size_t used = 0;
    int value = 0;
    try {
      value = std::stoi(e, &used);
    } catch (...) {
      return Bad(text, "malformed exponent");
    }
    if (used != e.size()) return Bad(text, "malformed exponent");
    exp10 += value;
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

  // Strip trailing zeros into the exponent, then scale exactly.
  while (digits.size() > 1 && digits.back() == '0' && exp10 < 0) {
    digits.pop_back();
    ++exp10;
  }
  size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos) return uint64_t{0};
  digits = digits.substr(first);
  if (exp10 < 0) return Bad(text, "not a whole number");
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  uint64_t value = 0;
  for (char c : digits) {
    uint64_t d = static_cast<uint64_t>(c - '0');
    if (value > (kMax - d) / 10) return Bad(text, "too large");
    value = value * 10 + d;
  }
  for (int k = 0; k < exp10; ++k) {
    if (value > kMax / 10) return Bad(text, "too large");
    value *= 10;
  }
  for (int k = 0; k < exp2; ++k) {
    if (value > kMax / 2) return Bad(text, "too large");
    value *= 2;
  }
  return value;
}

}  // namespace gcushare::contract
