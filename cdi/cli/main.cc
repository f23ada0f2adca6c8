// gcushare-cdi: generate, list and validate CDI specs for Enflame GCUs.
// Flags and output only; the work is done by the cdi library.
#include <CLI/CLI.hpp>
#include <iostream>
#include <string>
#include <vector>

#include "cdi/cli/generate.h"
#include "cdi/cli/list.h"
#include "cdi/spec_file.h"
#include "cdi/writer.h"
#include "contract/names.h"
#include "daemon/flags.h"
#include "daemon/logging.h"
#include "efml/card_table.h"

namespace gcushare::cdi {
namespace {

constexpr char kProgram[] = "gcushare-cdi";

void PrintError(const Status& status) {
  std::cerr << kProgram << ": " << status.message() << "\n";
}

struct GenerateFlags {
  GenerateOptions options;
  std::string format = "json";
};

// The flags that choose and configure the card backend (generate, cards).
void AddDiscoveryFlags(CLI::App& command, efml::CardSourceOptions& source) {
  command
      .add_option("--efml-backend", source.backend,
                  "Where the cards come from: auto (the EFML library, else "
                  "the /dev and sysfs scan), efml (libefml.so), scan (/dev "
                  "and sysfs) or fake (the --fake-cards file).")
      ->check(CLI::IsMember({"auto", "efml", "scan", "fake"}))
      ->capture_default_str();
  command
      .add_option("--fake-cards", source.fake_cards_file,
                  "YAML file describing the cards (demos, tests, nodes "
                  "without cards). Given without --efml-backend, it selects "
                  "the fake backend.")
      ->type_name("FILE");
  command
      .add_option("--efml-library", source.efml_library,
                  "The vendor's EFML library to load (efml and auto "
                  "backends): a file name searched by the dynamic loader, "
                  "or a path.")
      ->type_name("PATH")
      ->capture_default_str();
  command
      .add_option("--scan-root", source.root,
                  "Root under which the scan backend reads /dev and /sys.")
      ->type_name("DIR")
      ->capture_default_str();
  command
      .add_option("--scan-memory-mib", source.scan_memory_mib,
                  "Card memory in MiB for the scan backend when sysfs does "
                  "not report it (0: sysfs must report it).")
      ->type_name("N")
      ->check(CLI::Validator(
          [](const std::string& value) -> std::string {
            if (value.empty() ||
                value.find_first_not_of("0123456789") != std::string::npos) {
              return "must be a non-negative integer (MiB), got \"" + value +
                     "\"";
            }
            return "";
          },
          "", "non-negative integer"))
      ->capture_default_str();
}

// --fake-cards without --efml-backend selects the fake backend.
void ResolveBackend(const CLI::App& command, efml::CardSourceOptions& source) {
  if (command.get_option("--efml-backend")->count() == 0 &&
      !source.fake_cards_file.empty()) {
    source.backend = "fake";
  }
}

void AddGenerateFlags(CLI::App& command, GenerateFlags& flags) {
  AddDiscoveryFlags(command, flags.options.source);
  command
      .add_option("--output-dir", flags.options.output_dir,
                  "CDI spec directory to write enflame.com-gcu.<format> "
                  "into, e.g. /var/run/cdi (dynamic) or /etc/cdi (static).")
      ->type_name("DIR")
      ->capture_default_str();
  command
      .add_option("--format", flags.format,
                  "Spec file format: json or yaml. Our file of the other "
                  "format in the same directory is removed.")
      ->check(CLI::IsMember({"json", "yaml"}))
      ->capture_default_str();
}

int RunGenerate(const CLI::App& command, GenerateFlags& flags) {
  GenerateOptions& options = flags.options;
  ResolveBackend(command, options.source);
  StatusOr<Format> format = ParseFormat(flags.format);
  if (!format.ok()) {
    PrintError(format.status());
    return 2;
  }
  options.format = *format;
  StatusOr<GenerateReport> report = Generate(options);
  if (!report.ok()) {
    PrintError(report.status());
    return 1;
  }
  std::cout << report->Summary() << "\n";
  return 0;
}

int RunCards(const CLI::App& command, efml::CardSourceOptions& source) {
  ResolveBackend(command, source);
  StatusOr<std::unique_ptr<efml::CardSource>> cards =
      efml::MakeCardSource(source);
  if (!cards.ok()) {
    PrintError(cards.status());
    return 1;
  }
  StatusOr<efml::Inventory> inventory = (*cards)->Discover();
  if (!inventory.ok()) {
    PrintError(inventory.status());
    return 1;
  }
  std::cout << "backend: " << (*cards)->Name() << ", "
            << inventory->cards.size() << " cards\n"
            << efml::FormatCardTable(*inventory);
  return 0;
}

int RunList(const CLI::App& command, std::vector<std::string> dirs,
            const std::vector<std::string>& files) {
  if (command.get_option("--spec-dir")->count() == 0 && files.empty()) {
    dirs = {std::string(contract::kCdiStaticDir),
            std::string(contract::kCdiDynamicDir)};
  }
  ListReport report = ListDevices(files, dirs);
  for (const std::string& name : report.names) std::cout << name << "\n";
  for (const Status& error : report.errors) PrintError(error);
  return report.errors.empty() ? 0 : 1;
}

int RunValidate(const std::vector<std::string>& files) {
  int exit_code = 0;
  for (const std::string& file : files) {
    StatusOr<LoadedSpec> spec = LoadSpecFile(file);
    if (!spec.ok()) {
      PrintError(spec.status());
      exit_code = 1;
      continue;
    }
    std::cout << file << ": valid (cdiVersion " << spec->cdi_version
              << ", kind " << spec->kind << ", " << spec->device_names.size()
              << (spec->device_names.size() == 1 ? " device)" : " devices)")
              << "\n";
  }
  return exit_code;
}

int Main(int argc, char** argv) {
  CLI::App app{
      "Builds, validates and lists CDI (Container Device Interface) specs "
      "for Enflame GCUs: kind enflame.com/gcu, one device per card index, "
      "one per card UUID, and \"all\"."};
  SetUpApp(app, kProgram);
  // One help that shows every subcommand's flags too.
  app.set_help_flag();
  app.set_help_all_flag("-h,--help",
                        "Print this help, with every subcommand's flags, and "
                        "exit.");
  app.require_subcommand(1);
  app.fallthrough();
  // A command-line tool: logs go to stderr only unless --log-dir is given,
  // and only warnings and errors unless --log-level says otherwise.
  LogOptions log;
  log.dir.clear();
  log.level = "warn";
  AddLoggingFlags(app, &log);

  CLI::App* generate = app.add_subcommand(
      "generate",
      "Discover this host's cards, build the CDI spec, validate it and "
      "write it atomically to <output-dir>/enflame.com-gcu.<format>. An "
      "unchanged spec is not rewritten; on any error nothing is written.");
  GenerateFlags generate_flags;
  AddGenerateFlags(*generate, generate_flags);

  CLI::App* cards = app.add_subcommand(
      "cards",
      "Discover this host's cards with the chosen backend and print them "
      "as a table (what generate would put in the spec), without writing "
      "anything.");
  efml::CardSourceOptions cards_source;
  AddDiscoveryFlags(*cards, cards_source);

  CLI::App* list = app.add_subcommand(
      "list",
      "Print the fully qualified CDI device names (enflame.com/gcu=0) "
      "declared by the given spec files, or by the spec directories, one "
      "per line, sorted. Invalid specs are reported on stderr and skipped "
      "(exit status 1).");
  std::vector<std::string> spec_dirs;
  std::vector<std::string> list_files;
  list->add_option("--spec-dir", spec_dirs,
                   "A spec directory whose top-level *.json and *.yaml files "
                   "are read; repeat for several. Default, when neither this "
                   "nor FILE is given: /etc/cdi and /var/run/cdi. A missing "
                   "directory is skipped.")
      ->type_name("DIR")
      ->allow_extra_args(false);
  list->add_option("FILE", list_files, "Spec files to read.");

  CLI::App* validate = app.add_subcommand(
      "validate",
      "Check spec files against the CDI 1.1.0 rules (versions, names, "
      "fields, types). Prints one line per valid file; on a violation, a "
      "line naming the file, the field and the rule on stderr and exit "
      "status 1.");
  std::vector<std::string> validate_files;
  validate->add_option("FILE", validate_files, "Spec files to check.")
      ->required();

  if (std::optional<int> exit_code = ParseFlags(app, argc, argv)) {
    return *exit_code;
  }
  if (StatusOr<std::string> logging = InitLogging(kProgram, log);
      !logging.ok()) {
    PrintError(logging.status());
    return 2;
  }

  if (generate->parsed()) return RunGenerate(*generate, generate_flags);
  if (cards->parsed()) return RunCards(*cards, cards_source);
  if (list->parsed()) return RunList(*list, spec_dirs, list_files);
  return RunValidate(validate_files);
}

}  // namespace
}  // namespace gcushare::cdi

int main(int argc, char** argv) { return gcushare::cdi::Main(argc, argv); }
