#include "daemon/daemon.h"

#include <spdlog/spdlog.h>

#include <cstdio>

#include "daemon/flags.h"
#include "daemon/seccomp.h"
#include "daemon/version.h"

namespace gcushare {

Daemon::Daemon(std::string component, std::string description)
    : component_(std::move(component)), app_(std::move(description)) {
  SetUpApp(app_, component_);
  AddLoggingFlags(app_, &log_options_);
  AddSeccompFlag(app_, &seccomp_);
}

std::optional<int> Daemon::ParseFlags(int argc, const char* const* argv) {
  return gcushare::ParseFlags(app_, argc, argv);
}

Status Daemon::StartLogging() {
  GCUSHARE_ASSIGN_OR_RETURN(std::string file,
                            InitLogging(component_, log_options_));
  spdlog::info("starting {} (log file: {})", VersionLine(component_),
               file.empty() ? "none, stderr only" : file);
  return OkStatus();
}

Status Daemon::Confine(const SyscallAllowList& allowed) {
  if (!seccomp_) {
    spdlog::warn("seccomp confinement is off (--seccomp=false)");
    return OkStatus();
  }
  Status status = ConfineToSyscalls(allowed);
  if (status.ok()) {
    spdlog::info("seccomp: confined to {} system calls", allowed.size());
  }
  return status;
}

int Daemon::Fail(const Status& status) {
  if (spdlog::default_logger_raw() != nullptr) {
    spdlog::critical("{}", status.ToString());
    spdlog::default_logger()->flush();
  } else {
    std::fprintf(stderr, "%s: %s\n", component_.c_str(),
                 status.ToString().c_str());
  }
  return 1;
}

int Daemon::Finish() {
  int signo = shutdown_.SignalNumber();
  spdlog::info("{} stopped cleanly{}", component_,
               signo != 0 ? " after signal " + std::to_string(signo) : "");
  spdlog::default_logger()->flush();
  return 0;
}

}  // namespace gcushare
