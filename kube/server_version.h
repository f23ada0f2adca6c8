// The API server's version, as GET /version reports it
// ({"major":"1","minor":"26","gitVersion":"v1.26.4",...}). Managed
// clusters write the minor with a "+" ("26+"), which is accepted.
//
// Pure; thread-safe.
#ifndef GCUSHARE_KUBE_SERVER_VERSION_H_
#define GCUSHARE_KUBE_SERVER_VERSION_H_

#include <nlohmann/json.hpp>
#include <string>

#include "status/status.h"

namespace gcushare::kube {

struct ServerVersion {
  int major = 0;
  int minor = 0;
  std::string git_version;  // "v1.26.4"; may be empty.

  bool AtLeast(int want_major, int want_minor) const {
    return major > want_major || (major == want_major && minor >= want_minor);
  }
};

// InvalidArgument naming the field when major or minor is missing or not
// a number.
StatusOr<ServerVersion> ParseServerVersion(const nlohmann::json& version);

}  // namespace gcushare::kube

#endif  // GCUSHARE_KUBE_SERVER_VERSION_H_
