#include "daemon/logging.h"

#include <spdlog/sinks/rotating_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace gcushare {
namespace {

// Creates `dir` and its parents (like mkdir -p). Returns "" on success or the
// reason it failed.
std::string MakeDirs(const std::string& dir) {
  std::string partial;
  size_t pos = 0;
  while (pos != std::string::npos) {
    pos = dir.find('/', pos + 1);
    partial = dir.substr(0, pos);
    if (partial.empty()) continue;
    if (mkdir(partial.c_str(), 0755) != 0 && errno != EEXIST) {
      return "cannot create " + partial + ": " + std::strerror(errno);
    }
  }
  struct stat st;
  if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return dir + " is not a directory";
  }
  if (access(dir.c_str(), W_OK) != 0) {
    return "cannot write to " + dir + ": " + std::strerror(errno);
  }
  return "";
}

}  // namespace

const std::vector<std::string>& LogLevelNames() {
  static const std::vector<std::string> kNames = {
      "trace", "debug", "info", "warn", "error", "critical", "off"};
  return kNames;
}

StatusOr<spdlog::level::level_enum> ParseLogLevel(std::string_view name) {
  const auto& names = LogLevelNames();
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<spdlog::level::level_enum>(i);
  }
  return InvalidArgumentError(
      "unknown log level \"" + std::string(name) +
      "\" (valid: trace, debug, info, warn, error, critical, off)");
}

StatusOr<std::string> InitLogging(std::string_view component,
                                  const LogOptions& options) {
  GCUSHARE_ASSIGN_OR_RETURN(spdlog::level::level_enum level,
                            ParseLogLevel(options.level));
  std::vector<spdlog::sink_ptr> sinks;
  if (options.to_stderr) {
    sinks.push_back(std::make_shared<spdlog::sinks::stderr_sink_mt>());
  }
  std::string file;
  if (!options.dir.empty()) {
    std::string problem = MakeDirs(options.dir);
    std::string path = options.dir + "/" + std::string(component) + ".log";
    if (problem.empty()) {
      try {
        sinks.push_back(std::make_shared<spdlog::sinks::rotating_file_sink_mt>(
            path, options.max_file_bytes, options.max_files));
        file = path;
      } catch (const spdlog::spdlog_ex& e) {
        problem = e.what();
      }
    }
    if (!problem.empty()) {
      // Said once, on stderr, before the logger exists.
      std::fprintf(stderr,
                   "%.*s: not logging to a file (%s); logging to "
                   "stderr only\n",
                   static_cast<int>(component.size()), component.data(),
                   problem.c_str());
    }
  }
  auto logger = std::make_shared<spdlog::logger>(std::string(component),
                                                 sinks.begin(), sinks.end());
  // ISO 8601 time with zone, level, component, message.
  logger->set_pattern("%Y-%m-%dT%H:%M:%S.%e%z %l %n: %v");
  logger->set_level(level);
  // Flush at info and above so that a killed process loses nothing an
  // operator would look for; debug/trace stay buffered.
  logger->flush_on(spdlog::level::info);
  spdlog::set_default_logger(logger);
  return file;
}

}  // namespace gcushare
