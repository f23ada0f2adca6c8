#include "daemon/version.h"

// The release. scripts/image.sh may stamp another one without touching the
// source: --per_file_copt=daemon/version\.cc@-DGCUSHARE_VERSION="x.y.z"
// recompiles this file only. Keep it equal to the charts' appVersion.
#ifndef GCUSHARE_VERSION
#define GCUSHARE_VERSION "0.1.0"
#endif

namespace gcushare {

std::string_view Version() { return GCUSHARE_VERSION; }

std::string VersionLine(std::string_view component) {
  std::string line(component);
  line += ' ';
  line += Version();
  return line;
}

}  // namespace gcushare
