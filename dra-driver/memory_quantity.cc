#include "dra-driver/memory_quantity.h"

#include <cctype>
#include <limits>
#include <string>

#include "contract/quantity.h"

namespace gcushare::dra {
namespace {

Status Bad(std::string_view text, std::string_view why) {
  return InvalidArgumentError("memory quantity \"" + std::string(text) +
                              "\": " + std::string(why));
}

bool IsDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)); }

}  // namespace

StatusOr<uint64_t> ParseMemoryMillibytes(std::string_view text) {
  // Split "<sign><digits>[.<digits>]" from the suffix, move the suffix's
  // decimal exponent (plus 3 for milli) into an "e<n>" form that
  // contract::ParseIntegerQuantity evaluates exactly, and apply the binary
  // exponent here.
  size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  bool digits = false;
  while (i < text.size() && IsDigit(text[i])) ++i, digits = true;
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && IsDigit(text[i])) ++i, digits = true;
  }
  if (!digits) return Bad(text, "no digits");
  const std::string_view number = text.substr(0, i);
  const std::string_view suffix = text.substr(i);

  int exp10 = 0;
  int exp2 = 0;
  static constexpr struct {
    std::string_view text;
    int exp10;
    int exp2;
  } kSuffixes[] = {
      {"", 0, 0},    {"m", -3, 0},  {"k", 3, 0},   {"M", 6, 0},   {"G", 9, 0},
      {"T", 12, 0},  {"P", 15, 0},  {"E", 18, 0},  {"Ki", 0, 10}, {"Mi", 0, 20},
      {"Gi", 0, 30}, {"Ti", 0, 40}, {"Pi", 0, 50}, {"Ei", 0, 60},
  };
  bool found = false;
  for (const auto& candidate : kSuffixes) {
    if (candidate.text == suffix) {
      exp10 = candidate.exp10;
      exp2 = candidate.exp2;
      found = true;
      break;
    }
  }
  if (!found) {
    // "e<n>" / "E<n>" with an optional sign; |n| is kept small.
    if (suffix.size() < 2 || (suffix[0] != 'e' && suffix[0] != 'E')) {
      return Bad(text, "unknown suffix \"" + std::string(suffix) + "\"");
    }
    std::string_view e = suffix.substr(1);
    bool negative = false;
    if (e[0] == '+' || e[0] == '-') {
      negative = e[0] == '-';
      e.remove_prefix(1);
    }
    if (e.empty() || e.size() > 3) return Bad(text, "malformed exponent");
    for (char c : e) {
      if (!IsDigit(c)) return Bad(text, "malformed exponent");
      exp10 = exp10 * 10 + (c - '0');
    }
    if (negative) exp10 = -exp10;
  }

  StatusOr<uint64_t> scaled = contract::ParseIntegerQuantity(
      std::string(number) + "e" + std::to_string(exp10 + 3));
  if (!scaled.ok()) {
    const std::string& why = scaled.status().message();
    if (why.find("not a whole number") != std::string::npos) {
      return Bad(text, "finer than a millibyte");
    }
    if (why.find("negative") != std::string::npos) {
      return Bad(text, "negative");
    }
    if (why.find("too large") != std::string::npos) {
      return Bad(text, "too large");
    }
    return Bad(text, "malformed");
  }
  uint64_t value = *scaled;
  for (int k = 0; k < exp2; ++k) {
    if (value > std::numeric_limits<uint64_t>::max() / 2) {
      return Bad(text, "too large");
    }
    value *= 2;
  }
  return value;
}

}  // namespace gcushare::dra
