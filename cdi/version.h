// CDI specification versions and the lowest version a spec needs
// (docs/protocols.md 5.1).
//
// Pure functions; thread-safe; never throw. They inspect a spec as a JSON
// tree so that they work on any spec, ours or anyone's; members of the wrong
// type are ignored here (the validator reports them).
#ifndef GCUSHARE_CDI_VERSION_H_
#define GCUSHARE_CDI_VERSION_H_

#include <array>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace gcushare::cdi {

// The newest version this code knows.
inline constexpr std::string_view kCurrentVersion = "1.1.0";
// The lowest version a spec can declare and still load.
inline constexpr std::string_view kEarliestVersion = "0.3.0";

// Every accepted cdiVersion, oldest first.
inline constexpr std::array<std::string_view, 10> kKnownVersions = {
    "0.1.0", "0.2.0", "0.3.0", "0.4.0", "0.5.0",
    "0.6.0", "0.7.0", "0.8.0", "1.0.0", "1.1.0"};

// The canonical form of a declared version: "v0.5.0" -> "0.5.0". Returns an
// empty string when `declared` (with or without the 'v') is not known.
std::string CanonicalVersion(std::string_view declared);

// <0, 0 or >0 as a is older than, equal to or newer than b. Both must be
// canonical known versions (unknown ones sort first).
int CompareVersions(std::string_view a, std::string_view b);

// The lowest version a spec needs, with the first feature that demands it.
struct RequiredVersion {
  std::string version;  // e.g. "0.5.0"; at least kEarliestVersion.
  // Where the deciding feature is and what it is, e.g.
  // `devices[0].name "0" starts with a digit`; empty for the baseline.
  std::string reason;
};

// Applies the feature table: mounts[].type -> 0.4.0; deviceNodes[].hostPath
// or a device name starting with a digit -> 0.5.0; annotations (spec or
// device) or a '.' in the class of kind -> 0.6.0; intelRdt or
// additionalGids -> 0.7.0; netDevices, intelRdt.schemata or
// intelRdt.enableMonitoring -> 1.1.0. As in the reference implementation, a
// feature counts when it is set to a non-empty value (an empty string, list
// or map, or false, is the same as absent), except intelRdt, which counts
// whenever it is present and not null.
RequiredVersion RequiredVersionFor(const nlohmann::json& spec);

// RequiredVersionFor(spec).version.
std::string MinimumVersion(const nlohmann::json& spec);

}  // namespace gcushare::cdi

#endif  // GCUSHARE_CDI_VERSION_H_
