#include "daemon/flags.h"

#include <iostream>
#include <string>

#include "daemon/version.h"

namespace gcushare {

void SetUpApp(CLI::App& app, std::string_view component) {
  app.name(std::string(component));
  app.set_version_flag("--version", VersionLine(component),
                       "Print the version and exit.");
  app.set_help_flag("-h,--help", "Print this help and exit.");
  app.footer(
      "Flags take the form --name=value. Documentation: README.md of the "
      "GCUShare source tree.");
}

void AddLoggingFlags(CLI::App& app, LogOptions* options) {
  app.add_option("--log-dir", options->dir,
                 "Directory of the rotating log file <log-dir>/" +
                     app.get_name() +
                     ".log (size-capped, kept across restarts). When it "
                     "cannot be written, logs go to stderr only. Empty: "
                     "stderr only.")
      ->capture_default_str();
  app.add_option("--log-level", options->level,
                 "Least severe level logged: trace, debug, info, warn, "
                 "error, critical or off.")
      ->check(CLI::IsMember(LogLevelNames()))
      ->capture_default_str();
}

void AddSeccompFlag(CLI::App& app, bool* enabled) {
  app.add_flag("--seccomp,!--no-seccomp", *enabled,
               "Confine the process to the system calls it needs (seccomp). "
               "--seccomp=false turns this off for debugging.")
      ->capture_default_str();
}

std::optional<int> ParseFlags(CLI::App& app, int argc,
                              const char* const* argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return 0;
  } catch (const CLI::CallForAllHelp&) {
    std::cout << app.help("", CLI::AppFormatMode::All);
    return 0;
  } catch (const CLI::CallForVersion&) {
    std::cout << app.version() << "\n";
    return 0;
  } catch (const CLI::ParseError& e) {
    std::cerr << app.get_name() << ": " << e.what() << "\n"
              << "Run '" << app.get_name() << " --help' for the flags.\n";
    return 2;
  }
  return std::nullopt;
}

}  // namespace gcushare
