#include "daemon/version.h"

namespace gcushare {

std::string_view Version() { return "0.1.0"; }

std::string VersionLine(std::string_view component) {
  std::string line(component);
  line += ' ';
  line += Version();
  return line;
}

}  // namespace gcushare
