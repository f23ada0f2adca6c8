#include "cdi/names.h"

#include <cstdio>

namespace gcushare::cdi {
namespace {

bool IsAsciiLetter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool IsAsciiDigit(char c) { return c >= '0' && c <= '9'; }
bool IsAsciiAlnum(char c) { return IsAsciiLetter(c) || IsAsciiDigit(c); }

// 'x', or '\xNN' for bytes that are not printable ASCII.
std::string Quote(char c) {
  unsigned char u = static_cast<unsigned char>(c);
  if (u < 0x20 || u >= 0x7f) {
    char buffer[8];
    std::snprintf(buffer, sizeof(buffer), "'\\x%02X'", u);
    return buffer;
  }
  return std::string("'") + c + "'";
}

// The shared shape of all name rules: a first-character class, a set of
// middle characters, and a last character that is a letter or digit.
struct NameRule {
  bool first_may_be_digit;
  std::string_view extra_middle;  // Allowed besides letters and digits.
  std::string_view first_rule;    // "a letter" / "a letter or digit"
  std::string_view middle_rule;   // "letters, digits, '_', '.' and '-'"
};

constexpr NameRule kVendorOrClassRule = {
    false, "_.-", "a letter", "only letters, digits, '_', '.' and '-' are"};
constexpr NameRule kDeviceRule = {
    true, "_.:-", "a letter or digit",
    "only letters, digits, '_', '.', ':' and '-' are"};

Status Check(std::string_view text, const NameRule& rule) {
  if (text.empty()) return InvalidArgumentError("must not be empty");
  char first = text.front();
  bool first_ok =
      IsAsciiLetter(first) || (rule.first_may_be_digit && IsAsciiDigit(first));
  if (!first_ok) {
    return InvalidArgumentError("must start with " +
                                std::string(rule.first_rule) + ", not " +
                                Quote(first));
  }
  for (size_t i = 1; i < text.size(); ++i) {
    char c = text[i];
    if (!IsAsciiAlnum(c) &&
        rule.extra_middle.find(c) == std::string_view::npos) {
      return InvalidArgumentError(Quote(c) + " is not allowed (" +
                                  std::string(rule.middle_rule) + ")");
    }
  }
  char last = text.back();
  if (!IsAsciiAlnum(last)) {
    return InvalidArgumentError("must end with a letter or digit, not " +
                                Quote(last));
  }
  return OkStatus();
}

}  // namespace

Status ValidateVendorName(std::string_view vendor) {
  return Check(vendor, kVendorOrClassRule);
}

Status ValidateClassName(std::string_view class_name) {
  return Check(class_name, kVendorOrClassRule);
}

Status ValidateKind(std::string_view kind) {
  size_t slash = kind.find('/');
  if (slash == std::string_view::npos) {
    return InvalidArgumentError(
        "must be <vendor>/<class>, e.g. enflame.com/gcu (no '/' found)");
  }
  if (Status s = ValidateVendorName(kind.substr(0, slash)); !s.ok()) {
    return s.WithContext("vendor");
  }
  if (Status s = ValidateClassName(kind.substr(slash + 1)); !s.ok()) {
    return s.WithContext("class");
  }
  return OkStatus();
}

Status ValidateDeviceName(std::string_view name) {
  return Check(name, kDeviceRule);
}

StatusOr<QualifiedDeviceName> ParseQualifiedName(std::string_view text) {
  if (!text.empty() && text.front() == '/') {
    return InvalidArgumentError(
        "is a device path, not a CDI device name <vendor>/<class>=<name>");
  }
  size_t equals = text.find('=');
  if (equals == std::string_view::npos) {
    return InvalidArgumentError(
        "must be <vendor>/<class>=<name>, e.g. enflame.com/gcu=0 (no '=' "
        "found)");
  }
  std::string_view qualifier = text.substr(0, equals);
  size_t slash = qualifier.find('/');
  if (slash == std::string_view::npos) {
    return InvalidArgumentError(
        "must be <vendor>/<class>=<name>, e.g. enflame.com/gcu=0 (no '/' "
        "before the '=')");
  }
  QualifiedDeviceName parsed;
  parsed.vendor = std::string(qualifier.substr(0, slash));
  parsed.class_name = std::string(qualifier.substr(slash + 1));
  parsed.name = std::string(text.substr(equals + 1));
  if (Status s = ValidateVendorName(parsed.vendor); !s.ok()) {
    return s.WithContext("vendor");
  }
  if (Status s = ValidateClassName(parsed.class_name); !s.ok()) {
    return s.WithContext("class");
  }
  if (Status s = ValidateDeviceName(parsed.name); !s.ok()) {
    return s.WithContext("device name");
  }
  return parsed;
}

bool IsQualifiedName(std::string_view text) {
  return ParseQualifiedName(text).ok();
}

std::string QualifiedName(std::string_view kind, std::string_view name) {
  std::string result(kind);
  result += '=';
  result += name;
  return result;
}

}  // namespace gcushare::cdi
