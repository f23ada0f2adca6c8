#include "cdi/yaml_scalar.h"

#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>

namespace gcushare::cdi {
namespace {

using Json = nlohmann::json;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool AllOf(std::string_view text, bool (*pred)(char)) {
  if (text.empty()) return false;
  for (char c : text) {
    if (!pred(c)) return false;
  }
  return true;
}

bool IsOneOf(std::string_view text,
             std::initializer_list<std::string_view> words) {
  for (std::string_view word : words) {
    if (text == word) return true;
  }
  return false;
}

bool IsNullWord(std::string_view text) {
  return IsOneOf(text, {"", "~", "null", "Null", "NULL"});
}

Status OutOfRange(std::string_view text) {
  return InvalidArgumentError("integer " + std::string(text) +
                              " does not fit in 64 bits");
}

// Digits in `base` into a JSON integer, negated when `negative`. nullopt
// when the text is not such digits.
std::optional<StatusOr<Json>> Integer(std::string_view original,
                                      std::string_view digits, int base,
                                      bool negative) {
  if (digits.empty()) return std::nullopt;
  uint64_t magnitude = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(),
                                   magnitude, base);
  if (ptr != digits.data() + digits.size()) {
    if (ec == std::errc::result_out_of_range) {
      return StatusOr<Json>(OutOfRange(original));
    }
    return std::nullopt;
  }
  if (ec == std::errc::result_out_of_range) {
    return StatusOr<Json>(OutOfRange(original));
  }
  if (ec != std::errc()) return std::nullopt;
  if (!negative) return StatusOr<Json>(Json(magnitude));
  constexpr uint64_t kMinMagnitude =
      static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) + 1;
  if (magnitude > kMinMagnitude) return StatusOr<Json>(OutOfRange(original));
  if (magnitude == kMinMagnitude) {
    return StatusOr<Json>(Json(std::numeric_limits<int64_t>::min()));
  }
  return StatusOr<Json>(Json(-static_cast<int64_t>(magnitude)));
}

std::optional<StatusOr<Json>> CoreInteger(std::string_view text) {
  if (text.size() > 2 && text[0] == '0' && text[1] == 'o') {
    return Integer(text, text.substr(2), 8, false);
  }
  if (text.size() > 2 && text[0] == '0' && text[1] == 'x') {
    return Integer(text, text.substr(2), 16, false);
  }
  std::string_view digits = text;
  bool negative = false;
  if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) {
    negative = digits[0] == '-';
    digits.remove_prefix(1);
  }
  if (!AllOf(digits, IsDigit)) return std::nullopt;
  return Integer(text, digits, 10, negative);
}

// [-+]? ( \.[0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?
bool LooksLikeCoreFloat(std::string_view text) {
  size_t i = 0;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
  size_t int_digits = 0;
  while (i < text.size() && IsDigit(text[i])) ++i, ++int_digits;
  size_t frac_digits = 0;
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && IsDigit(text[i])) ++i, ++frac_digits;
  }
  if (int_digits == 0 && frac_digits == 0) return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
    size_t exp_digits = 0;
    while (i < text.size() && IsDigit(text[i])) ++i, ++exp_digits;
    if (exp_digits == 0) return false;
  }
  return i == text.size();
}

std::optional<Json> CoreFloat(std::string_view text) {
  if (IsOneOf(text, {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"})) {
    return Json(std::numeric_limits<double>::infinity());
  }
  if (IsOneOf(text, {"-.inf", "-.Inf", "-.INF"})) {
    return Json(-std::numeric_limits<double>::infinity());
  }
  if (IsOneOf(text, {".nan", ".NaN", ".NAN"})) {
    return Json(std::numeric_limits<double>::quiet_NaN());
  }
  if (!LooksLikeCoreFloat(text)) return std::nullopt;
  std::string_view number = text;
  if (!number.empty() && number[0] == '+') number.remove_prefix(1);
  double value = 0;
  auto [ptr, ec] =
      std::from_chars(number.data(), number.data() + number.size(), value);
  if (ptr != number.data() + number.size()) return std::nullopt;
  if (ec == std::errc::result_out_of_range) {
    // from_chars leaves `value` untouched on overflow; YAML means infinity
    // (or zero for underflow), as strtod would give.
    value = std::strtod(std::string(number).c_str(), nullptr);
  }
  return Json(value);
}

std::optional<Json> CoreBool(std::string_view text) {
  if (IsOneOf(text, {"true", "True", "TRUE"})) return Json(true);
  if (IsOneOf(text, {"false", "False", "FALSE"})) return Json(false);
  return std::nullopt;
}

bool IsAsciiLetter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

std::string_view ShortTag(std::string_view tag) {
  constexpr std::string_view kLong = "tag:yaml.org,2002:";
  if (tag.substr(0, kLong.size()) == kLong) return tag.substr(kLong.size());
  if (tag.substr(0, 2) == "!!") return tag.substr(2);
  return tag;
}

}  // namespace

StatusOr<Json> ResolvePlainScalar(std::string_view text) {
  if (IsNullWord(text)) return Json(nullptr);
  if (std::optional<Json> b = CoreBool(text)) return *b;
  if (std::optional<StatusOr<Json>> i = CoreInteger(text)) return *i;
  if (std::optional<Json> f = CoreFloat(text)) return *f;
  return Json(std::string(text));
}

StatusOr<Json> ResolveTaggedScalar(std::string_view tag,
                                   std::string_view text) {
  std::string_view name = ShortTag(tag);
  if (name == "str") return Json(std::string(text));
  if (name == "null") {
    if (IsNullWord(text)) return Json(nullptr);
  } else if (name == "bool") {
    if (std::optional<Json> b = CoreBool(text)) return *b;
  } else if (name == "int") {
    if (std::optional<StatusOr<Json>> i = CoreInteger(text)) return *i;
  } else if (name == "float") {
    if (std::optional<StatusOr<Json>> i = CoreInteger(text)) {
      if (!i->ok()) return i->status();
      return Json((*i)->get<double>());
    }
    if (std::optional<Json> f = CoreFloat(text)) return *f;
  } else {
    return InvalidArgumentError("unsupported tag " + std::string(tag) +
                                " (only str, int, float, bool and null)");
  }
  return InvalidArgumentError("\"" + std::string(text) + "\" is not a valid " +
                              std::string(name));
}

bool NeedsQuoting(std::string_view text) {
  if (text.empty()) return true;
  if (!IsAsciiLetter(text.front()) && text.front() != '/') return true;
  // Words YAML 1.2 (null, booleans) or YAML 1.1 (also yes/no/on/off/y/n)
  // read as something other than a string.
  return IsOneOf(text,
                 {"null",  "Null",  "NULL", "true", "True", "TRUE", "false",
                  "False", "FALSE", "y",    "Y",    "yes",  "Yes",  "YES",
                  "n",     "N",     "no",   "No",   "NO",   "on",   "On",
                  "ON",    "off",   "Off",  "OFF"});
}

}  // namespace gcushare::cdi
