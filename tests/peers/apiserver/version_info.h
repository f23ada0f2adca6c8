// The body of GET /version for a kube-apiserver release: version.Info as the
// real server writes it (indented by two spaces, Go struct field order).
//
// v1.31.0 gives that release's exact document. Other releases get major and
// minor from the version, gitCommit of 40 zeros, gitTreeState "clean", a
// fixed buildDate and goVersion (placeholders: the stand-in cannot know the
// real build), and from 1.33 on the emulation and minimum compatibility
// fields the real server adds (emulation = the binary's version, minimum
// compatibility = one minor release earlier).
//
// Failure: InvalidArgument unless the version reads "v<major>.<minor>.<patch>"
// (an optional "-suffix" allowed). Thread-safety: pure function.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_VERSION_INFO_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_VERSION_INFO_H_

#include <string>
#include <string_view>

#include "status/status.h"

namespace gcushare::apiserver {

inline constexpr char kDefaultKubeVersion[] = "v1.31.0";

StatusOr<std::string> VersionJson(std::string_view git_version);

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_VERSION_INFO_H_
