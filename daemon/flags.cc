#include "daemon/flags.h"

#include <iostream>
#include <string>
#include <string_view>

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
  // CLI11 reads "--name=" as "--name" and takes the NEXT argument as its
  // value, silently swallowing another flag. Refuse it instead.
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--") break;
    if (arg.size() > 3 && arg.substr(0, 2) == "--" && arg.back() == '=') {
      std::cerr << app.get_name() << ": flag " << arg
                << " has an empty value; give a value or leave the flag out\n"
                << "Run '" << app.get_name() << " --help' for the flags.\n";
      return 2;
    }
  }
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
