#include "ha/go_duration.h"

#include <cctype>
#include <cmath>
#include <cstdio>

namespace gcushare::ha {
namespace {

// Nanoseconds per unit, 0 for an unknown unit.
double UnitNanos(std::string_view unit) {
  if (unit == "ns") return 1;
  if (unit == "us" || unit == "\xC2\xB5s") return 1e3;
  if (unit == "ms") return 1e6;
  if (unit == "s") return 1e9;
  if (unit == "m") return 60e9;
  if (unit == "h") return 3600e9;
  return 0;
}

}  // namespace

StatusOr<std::chrono::nanoseconds> ParseGoDuration(std::string_view text) {
  const std::string quoted = "duration \"" + std::string(text) + "\"";
  if (text.empty()) return InvalidArgumentError("empty duration");
  if (text == "0") return std::chrono::nanoseconds(0);
  if (text.front() == '-') {
    return InvalidArgumentError(quoted + " is negative");
  }
  if (text.front() == '+') text.remove_prefix(1);
  double total = 0;
  while (!text.empty()) {
    size_t digits = 0;
    bool dot = false, any_digit = false;
    while (digits < text.size() &&
           (std::isdigit(static_cast<unsigned char>(text[digits])) ||
            (text[digits] == '.' && !dot))) {
      if (text[digits] == '.') {
        dot = true;
      } else {
        any_digit = true;
      }
      ++digits;
    }
    if (!any_digit) {
      return InvalidArgumentError(quoted + ": expected a number");
    }
    const double value = std::stod(std::string(text.substr(0, digits)));
    text.remove_prefix(digits);
    size_t unit_size = 0;
    while (unit_size < text.size() &&
           !std::isdigit(static_cast<unsigned char>(text[unit_size])) &&
           text[unit_size] != '.') {
      ++unit_size;
    }
    if (unit_size == 0) {
      return InvalidArgumentError(quoted +
                                  ": missing unit (ns, us, ms, s, m, h)");
    }
    const double nanos = UnitNanos(text.substr(0, unit_size));
    if (nanos == 0) {
      return InvalidArgumentError(quoted + ": unknown unit \"" +
                                  std::string(text.substr(0, unit_size)) +
                                  "\" (ns, us, ms, s, m, h)");
    }
    text.remove_prefix(unit_size);
    total += value * nanos;
  }
  if (total > 9.2e18) return InvalidArgumentError(quoted + " is too long");
  return std::chrono::nanoseconds(static_cast<int64_t>(std::llround(total)));
}

std::string FormatGoDuration(std::chrono::nanoseconds duration) {
  const int64_t ns = duration.count();
  char buffer[64];
  if (ns == 0) return "0s";
  if (ns % 1000000000 == 0) {
    std::snprintf(buffer, sizeof(buffer), "%llds",
                  static_cast<long long>(ns / 1000000000));
  } else if (ns % 1000000 == 0) {
    std::snprintf(buffer, sizeof(buffer), "%lldms",
                  static_cast<long long>(ns / 1000000));
  } else if (ns % 1000 == 0) {
    std::snprintf(buffer, sizeof(buffer), "%lldus",
                  static_cast<long long>(ns / 1000));
  } else {
    std::snprintf(buffer, sizeof(buffer), "%lldns", static_cast<long long>(ns));
  }
  return buffer;
}

}  // namespace gcushare::ha
