// `gcushare-cdi list`: the fully qualified CDI device names that spec files
// declare, as a runtime would see them.
//
// Thread-safety: stateless. Failure: per file; an unreadable or invalid
// spec is reported in ListReport::errors and skipped, the others are still
// listed. Never throws.
#ifndef GCUSHARE_CDI_CLI_LIST_H_
#define GCUSHARE_CDI_CLI_LIST_H_

#include <string>
#include <vector>

#include "status/status.h"

namespace gcushare::cdi {

struct ListReport {
  std::vector<std::string> names;  // Sorted, unique: "enflame.com/gcu=0".
  std::vector<Status> errors;      // One per file that could not be used.
};

// Lists the devices of `files` and of every spec file in `dirs`
// (FindSpecFiles: top-level *.json and *.yaml; a missing dir is skipped).
ListReport ListDevices(const std::vector<std::string>& files,
                       const std::vector<std::string>& dirs);

}  // namespace gcushare::cdi

#endif  // GCUSHARE_CDI_CLI_LIST_H_
