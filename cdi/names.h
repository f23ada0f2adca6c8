// The CDI name rules (docs/protocols.md 5.3): vendor, class, kind, device name
// and fully qualified device names ("enflame.com/gcu=0").
//
// Pure functions on strings; thread-safe. A check returns OK or an
// InvalidArgument whose message states the broken rule without repeating the
// checked string, so that callers can add their own context, e.g.
// `'/' is not allowed (only letters, digits, '_', '.', ':' and '-' are)`.
// Never throws.
#ifndef GCUSHARE_CDI_NAMES_H_
#define GCUSHARE_CDI_NAMES_H_

#include <string>
#include <string_view>

#include "status/status.h"

namespace gcushare::cdi {

// Vendor: starts with a letter, then letters, digits, '_', '.', '-', and ends
// with a letter or digit ("enflame.com"). One letter is a valid vendor.
Status ValidateVendorName(std::string_view vendor);

// Class: the vendor rule ("gcu"). A '.' in the class needs cdiVersion 0.6.0;
// that is a version matter (see version.h), not a name error.
Status ValidateClassName(std::string_view class_name);

// Kind: "<vendor>/<class>", split at the first '/'.
Status ValidateKind(std::string_view kind);

// Device name: starts with a letter or digit, then letters, digits, '_',
// '.', ':', '-', and ends with a letter or digit ("0", "GCU-U0000000001",
// "all"). A leading digit needs cdiVersion 0.5.0 (see version.h).
Status ValidateDeviceName(std::string_view name);

struct QualifiedDeviceName {
  std::string vendor;      // "enflame.com"
  std::string class_name;  // "gcu"
  std::string name;        // "0"

  std::string Kind() const { return vendor + "/" + class_name; }
  std::string ToString() const { return Kind() + "=" + name; }

  friend bool operator==(const QualifiedDeviceName&,
                         const QualifiedDeviceName&) = default;
};

// Parses "<vendor>/<class>=<name>": split at the first '=', then the part
// before it at the first '/'. Each part must follow its rule. A string that
// starts with '/' is a device path, not a CDI name, and is refused as such.
StatusOr<QualifiedDeviceName> ParseQualifiedName(std::string_view text);

// True when `text` parses as a fully qualified device name.
bool IsQualifiedName(std::string_view text);

// "<kind>=<name>", e.g. QualifiedName("enflame.com/gcu", "0") ==
// "enflame.com/gcu=0". Does not validate.
std::string QualifiedName(std::string_view kind, std::string_view name);

}  // namespace gcushare::cdi

#endif  // GCUSHARE_CDI_NAMES_H_
