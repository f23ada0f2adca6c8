// Daemon: the start-up every GCUShare daemon shares, in one place.
//
//   int main(int argc, char** argv) {
//     gcushare::Daemon daemon("gcushare-device-plugin", "Kubelet device ...");
//     daemon.app().add_option("--node-name", node, "...");
//     if (auto code = daemon.ParseFlags(argc, argv)) return *code;
//     if (auto s = daemon.StartLogging(); !s.ok()) return daemon.Fail(s);
//     ... open sockets, load libraries ...
//     if (auto s = daemon.Confine(MySyscalls()); !s.ok()) return
//     daemon.Fail(s); daemon.shutdown().Wait();
//     ... stop servers ...
//     return daemon.Finish();
//   }
//
// Construct it first thing in main: it blocks SIGTERM/SIGINT before any
// thread starts (see ShutdownSignal). Flags it adds: --help, --version,
// --log-dir, --log-level, --seccomp.
//
// Ownership: owns the CLI11 app and the ShutdownSignal. Thread-safety: use
// from main's thread; shutdown() is thread-safe.
#ifndef GCUSHARE_DAEMON_DAEMON_H_
#define GCUSHARE_DAEMON_DAEMON_H_

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "daemon/logging.h"
#include "daemon/seccomp.h"
#include "daemon/shutdown.h"
#include "status/status.h"

namespace gcushare {

class Daemon {
 public:
  Daemon(std::string component, std::string description);

  CLI::App& app() { return app_; }
  const std::string& component() const { return component_; }
  const LogOptions& log_options() const { return log_options_; }
  bool seccomp_enabled() const { return seccomp_; }
  ShutdownSignal& shutdown() { return shutdown_; }

  // Parses the flags; the exit code when the program should stop now.
  std::optional<int> ParseFlags(int argc, const char* const* argv);

  // Installs logging and logs the start line with the version.
  Status StartLogging();

  // Confines the process to `allowed`, the daemon's own list (unless
  // --seccomp=false), and logs what it did.
  Status Confine(const SyscallAllowList& allowed);

  // Logs a fatal error and returns the exit code for it (1).
  int Fail(const Status& status);

  // Logs the clean stop and returns 0.
  int Finish();

 private:
  std::string component_;
  ShutdownSignal shutdown_;  // First member constructed after the names.
  CLI::App app_;
  LogOptions log_options_;
  bool seccomp_ = true;
};

}  // namespace gcushare

#endif  // GCUSHARE_DAEMON_DAEMON_H_
