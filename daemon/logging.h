// Logging for every GCUShare binary: spdlog to stderr and to a size-capped
// rotating file <log-dir>/<component>.log, so that a restarted or removed
// component leaves its history on the node.
//
// InitLogging installs the process's default spdlog logger; libraries log
// through spdlog::info(...) and friends. Call it once, early in main, after
// ShutdownSignal (which must come before any thread).
//
// Failure: a log directory that cannot be created or written is not fatal:
// one line says so on stderr and logging goes on to stderr only.
#ifndef GCUSHARE_DAEMON_LOGGING_H_
#define GCUSHARE_DAEMON_LOGGING_H_

#include <spdlog/spdlog.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "status/status.h"

namespace gcushare {

inline constexpr std::string_view kDefaultLogDir =
    "/var/log/topscloud/gcushare";

struct LogOptions {
  std::string dir = std::string(kDefaultLogDir);  // Empty: stderr only.
  std::string level = "info";  // trace|debug|info|warn|error|critical|off
  size_t max_file_bytes = 10 * 1024 * 1024;  // Per file, before rotating.
  size_t max_files = 5;                      // Rotated files kept.
  bool to_stderr = true;
};

// The level names accepted by --log-level, in order of verbosity.
const std::vector<std::string>& LogLevelNames();

// "info" -> spdlog::level::info; anything else -> InvalidArgument listing
// the valid names.
StatusOr<spdlog::level::level_enum> ParseLogLevel(std::string_view name);

// Installs the default logger named `component`. Returns the path of the log
// file in use, or an empty string when logging to stderr only (after saying
// why on stderr). Fails only on an invalid level.
StatusOr<std::string> InitLogging(std::string_view component,
                                  const LogOptions& options);

}  // namespace gcushare

#endif  // GCUSHARE_DAEMON_LOGGING_H_
