// Durations written as Kubernetes' (Go's) command-line flags write them:
// "4s", "500ms", "1.5s", "1m30s", "250us". Units: ns, us (or µs), ms, s,
// m, h; a bare "0" is zero. Pure; InvalidArgument names what is wrong
// (empty text, a number without unit, an unknown unit, a negative value).
#ifndef GCUSHARE_HA_GO_DURATION_H_
#define GCUSHARE_HA_GO_DURATION_H_

#include <chrono>
#include <string>
#include <string_view>

#include "status/status.h"

namespace gcushare::ha {

StatusOr<std::chrono::nanoseconds> ParseGoDuration(std::string_view text);

// "4s", "500ms", "1.5s": the shortest form ParseGoDuration reads back.
std::string FormatGoDuration(std::chrono::nanoseconds duration);

}  // namespace gcushare::ha

#endif  // GCUSHARE_HA_GO_DURATION_H_
