#include "tests/peers/apiserver/feature_gates.h"

#include <string>

namespace gcushare::apiserver {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

// The value of gate `name`, as Go's strconv.ParseBool reads it.
StatusOr<bool> ParseGateValue(const std::string& name,
                              const std::string& value) {
  if (value == "1" || value == "t" || value == "T" || value == "true" ||
      value == "TRUE" || value == "True") {
    return true;
  }
  if (value == "0" || value == "f" || value == "F" || value == "false" ||
      value == "FALSE" || value == "False") {
    return false;
  }
  return InvalidArgumentError("invalid value of " + name + "=" + value +
                              ", err: strconv.ParseBool: parsing \"" + value +
                              "\": invalid syntax");
}

}  // namespace

StatusOr<FeatureGates> FeatureGates::Parse(std::string_view text) {
  FeatureGates gates;
  while (!text.empty()) {
    const size_t comma = text.find(',');
    std::string_view term = Trim(text.substr(0, comma));
    text = comma == std::string_view::npos ? std::string_view()
                                           : text.substr(comma + 1);
    if (term.empty()) continue;
    const size_t eq = term.find('=');
    if (eq == std::string_view::npos) {
      return InvalidArgumentError("missing bool value for " +
                                  std::string(term));
    }
    const std::string name(Trim(term.substr(0, eq)));
    const std::string value(Trim(term.substr(eq + 1)));
    GCUSHARE_ASSIGN_OR_RETURN(const bool on, ParseGateValue(name, value));
    if (name == "DRAConsumableCapacity") {
      gates.dra_consumable_capacity = on;
    } else if (name == "DRAExtendedResource") {
      gates.dra_extended_resource = on;
    } else {
      return InvalidArgumentError("unrecognized feature gate: " + name);
    }
  }
  return gates;
}

}  // namespace gcushare::apiserver
