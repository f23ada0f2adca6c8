#include "tests/peers/apiserver/quantity.h"

#include <cctype>
#include <string>

namespace gcushare::apiserver {
namespace {

using Wide = __int128;

constexpr Wide kLimit = static_cast<Wide>(INT64_MAX);

}  // namespace

std::string QuantitySyntaxError(std::string_view text) {
  static constexpr char kFormat[] =
      "quantities must match the regular expression "
      "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
  size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  const size_t number_start = i;
  while (
      i < text.size() &&
      (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) {
    ++i;
  }
  if (i == number_start) return kFormat;
  std::string_view number = text.substr(number_start, i - number_start);
  if (number.find('.') != number.rfind('.') || number == ".") return kFormat;
  std::string_view suffix = text.substr(i);
  // The suffix part of the regular expression: [eEinumkKMGTP]*[-+]?[0-9]*.
  size_t j = 0;
  while (j < suffix.size() &&
         std::string_view("eEinumkKMGTP").find(suffix[j]) !=
             std::string_view::npos) {
    ++j;
  }
  if (j < suffix.size() && (suffix[j] == '+' || suffix[j] == '-')) ++j;
  while (j < suffix.size() &&
         std::isdigit(static_cast<unsigned char>(suffix[j]))) {
    ++j;
  }
  if (j != suffix.size()) return kFormat;
  static constexpr std::string_view kSuffixes[] = {
      "",  "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "n",
      "u", "m",  "k",  "M",  "G",  "T",  "P",  "E"};
  for (std::string_view known : kSuffixes) {
    if (suffix == known) return "";
  }
  if (suffix.size() >= 2 && (suffix[0] == 'e' || suffix[0] == 'E')) {
    std::string_view exp = suffix.substr(1);
    if (exp[0] == '+' || exp[0] == '-') exp.remove_prefix(1);
    bool digits = !exp.empty();
    for (char c : exp) {
      digits = digits && std::isdigit(static_cast<unsigned char>(c));
    }
    if (digits) return "";
  }
  return "unable to parse quantity's suffix";
}

std::optional<int64_t> ParseMilliQuantity(std::string_view text) {
  size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) {
    negative = text[i] == '-';
    ++i;
  }
  Wide mantissa = 0;
  int fraction_digits = 0;
  bool digits = false;
  bool dot = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      digits = true;
      if (mantissa > kLimit * 1000) return std::nullopt;
      mantissa = mantissa * 10 + (c - '0');
      if (dot) ++fraction_digits;
    } else if (c == '.' && !dot) {
      dot = true;
    } else {
      break;
    }
  }
  if (!digits) return std::nullopt;
  std::string_view suffix = text.substr(i);
  // Scale: multiply by 2^binary * 10^decimal (decimal may be negative).
  int binary = 0;
  int decimal = 3 - fraction_digits;  // Milli-units.
  if (suffix.empty()) {
  } else if (suffix == "Ki") {
    binary = 10;
  } else if (suffix == "Mi") {
    binary = 20;
  } else if (suffix == "Gi") {
    binary = 30;
  } else if (suffix == "Ti") {
    binary = 40;
  } else if (suffix == "Pi") {
    binary = 50;
  } else if (suffix == "Ei") {
    binary = 60;
  } else if (suffix == "n") {
    decimal -= 9;
  } else if (suffix == "u") {
    decimal -= 6;
  } else if (suffix == "m") {
    decimal -= 3;
  } else if (suffix == "k") {
    decimal += 3;
  } else if (suffix == "M") {
    decimal += 6;
  } else if (suffix == "G") {
    decimal += 9;
  } else if (suffix == "T") {
    decimal += 12;
  } else if (suffix == "P") {
    decimal += 15;
  } else if (suffix == "E") {
    decimal += 18;
  } else if (suffix[0] == 'e' || suffix[0] == 'E') {
    std::string_view exp = suffix.substr(1);
    bool neg_exp = false;
    if (!exp.empty() && (exp[0] == '+' || exp[0] == '-')) {
      neg_exp = exp[0] == '-';
      exp.remove_prefix(1);
    }
    if (exp.empty() || exp.size() > 3) return std::nullopt;
    int e = 0;
    for (char c : exp) {
      if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
      e = e * 10 + (c - '0');
    }
    decimal += neg_exp ? -e : e;
  } else {
    return std::nullopt;
  }
  Wide value = mantissa;
  for (int b = 0; b < binary; ++b) {
    value *= 2;
    if (value > kLimit * 1000) return std::nullopt;
  }
  for (; decimal > 0; --decimal) {
    value *= 10;
    if (value > kLimit) return std::nullopt;
  }
  bool inexact = false;
  for (; decimal < 0; ++decimal) {
    if (value % 10 != 0) inexact = true;
    value /= 10;
  }
  if (inexact && !negative) value += 1;  // Round up, as MilliValue does.
  if (value > kLimit) return std::nullopt;
  return static_cast<int64_t>(negative ? -value : value);
}

}  // namespace gcushare::apiserver
