#include "daemon/flags.h"

#include <iostream>
#include <string>
#include <string_view>
#include <vector>

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
  // value, silently swallowing another flag. Pass "--name" "" instead, so
  // that "--name=" means an empty value (e.g. --log-dir=: stderr only).
  std::vector<std::string> args;
  args.reserve(argc);
  bool options_ended = false;
  for (int i = 0; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--") options_ended = true;
    if (!options_ended && i > 0 && arg.size() > 3 && arg.substr(0, 2) == "--" &&
        arg.back() == '=' && arg.find('=') == arg.size() - 1) {
      args.emplace_back(arg.substr(0, arg.size() - 1));
      args.emplace_back();
      continue;
    }
    args.emplace_back(arg);
  }
  std::vector<const char*> rewritten;
  rewritten.reserve(args.size());
  for (const std::string& arg : args) rewritten.push_back(arg.c_str());
  try {
    app.parse(static_cast<int>(rewritten.size()), rewritten.data());
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
