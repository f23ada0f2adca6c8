#include "efml/card_source_flags.h"

namespace gcushare::efml {

void AddCardSourceFlags(CLI::App& app, CardSourceOptions* options) {
  app.add_option("--efml-backend", options->backend,
                 "Where the cards come from: auto (the EFML library, else the "
                 "/dev and sysfs scan), efml (libefml.so), scan (/dev and "
                 "sysfs) or fake (the --fake-cards file).")
      ->check(CLI::IsMember({"auto", "efml", "scan", "fake"}))
      ->capture_default_str();
  app.add_option("--fake-cards", options->fake_cards_file,
                 "YAML file describing the cards (demos, tests, nodes "
                 "without cards; schema in configs/fake-cards.yaml). Re-read "
                 "on every health poll. Given without --efml-backend, it "
                 "selects the fake backend.")
      ->type_name("FILE");
  app.add_option("--efml-library", options->efml_library,
                 "The vendor's EFML library (efml and auto backends): a file "
                 "name searched by the dynamic loader, or a path.")
      ->type_name("PATH")
      ->capture_default_str();
  app.add_option("--scan-memory-mib", options->scan_memory_mib,
                 "Card memory in MiB for the scan backend when sysfs does not "
                 "report it (0: sysfs must report it).")
      ->type_name("N")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
}

void ResolveCardSourceFlags(const CLI::App& app, CardSourceOptions* options) {
  if (app.get_option("--efml-backend")->count() == 0 &&
      !options->fake_cards_file.empty()) {
    options->backend = "fake";
  }
}

}  // namespace gcushare::efml
