// Command-line flags shared by every GCUShare binary, on top of CLI11.
//
// Flags are Kubernetes-style: `--name=value` (and `--name value`). Every
// binary gets `--help` and `--version`; daemons add the logging flags and the
// seccomp switch. Typical use:
//
//   CLI::App app{"What this daemon does."};
//   SetUpApp(app, "gcushare-device-plugin");
//   LogOptions log;   AddLoggingFlags(app, &log);
//   bool seccomp = true;  AddSeccompFlag(app, &seccomp);
//   app.add_option("--node-name", node, "...");
//   if (auto exit_code = ParseFlags(app, argc, argv)) return *exit_code;
#ifndef GCUSHARE_DAEMON_FLAGS_H_
#define GCUSHARE_DAEMON_FLAGS_H_

#include <CLI/CLI.hpp>
#include <optional>
#include <string_view>

#include "daemon/logging.h"

namespace gcushare {

// Names the app, adds --version (prints VersionLine(component)) and a footer
// pointing at the documentation.
void SetUpApp(CLI::App& app, std::string_view component);

// --log-dir and --log-level, filling `options` (defaults kept when absent).
void AddLoggingFlags(CLI::App& app, LogOptions* options);

// --seccomp (default true; `--seccomp=false` turns confinement off for
// debugging).
void AddSeccompFlag(CLI::App& app, bool* enabled);

// Parses argv. Returns std::nullopt when the program should go on, or the
// exit code when it should stop now: 0 after --help/--version (printed to
// stdout), 2 after a bad flag (a one-line error and a hint on stderr).
// "--name=" gives the option an empty value (CLI11 alone would take the
// next argument as the value).
std::optional<int> ParseFlags(CLI::App& app, int argc, const char* const* argv);

}  // namespace gcushare

#endif  // GCUSHARE_DAEMON_FLAGS_H_
