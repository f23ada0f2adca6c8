// The one version of every GCUShare binary.
#ifndef GCUSHARE_DAEMON_VERSION_H_
#define GCUSHARE_DAEMON_VERSION_H_

#include <string>
#include <string_view>

namespace gcushare {

// The release, e.g. "0.1.0": GCUSHARE_VERSION in version.cc (bump it there
// and in the charts' appVersion), or what scripts/image.sh stamps.
std::string_view Version();

// What `<component> --version` prints: "<component> <version>".
std::string VersionLine(std::string_view component);

}  // namespace gcushare

#endif  // GCUSHARE_DAEMON_VERSION_H_
