#include "efml/card_source_factory.h"

#include <spdlog/spdlog.h>

#include <utility>

#include "efml/efml_card_source.h"
#include "efml/fake_card_source.h"
#include "efml/scan_card_source.h"

namespace gcushare::efml {
namespace {

StatusOr<std::unique_ptr<CardSource>> MakeFake(
    const CardSourceOptions& options) {
  if (options.fake_cards_file.empty()) {
    return InvalidArgumentError(
        "backend fake needs a cards file (--fake-cards-file); see "
        "configs/fake-cards.yaml");
  }
  return std::unique_ptr<CardSource>(
      std::make_unique<FakeCardSource>(options.fake_cards_file));
}

StatusOr<std::unique_ptr<CardSource>> MakeScan(
    const CardSourceOptions& options) {
  return std::unique_ptr<CardSource>(
      std::make_unique<ScanCardSource>(options.root, options.scan_memory_mib));
}

StatusOr<std::unique_ptr<CardSource>> MakeEfml(
    const CardSourceOptions& options) {
  GCUSHARE_ASSIGN_OR_RETURN(
      std::unique_ptr<EfmlCardSource> source,
      EfmlCardSource::Create(options.efml_library, options.root));
  return std::unique_ptr<CardSource>(std::move(source));
}

// For "auto": a backend counts as usable only when it builds and its first
// Discover() succeeds, so that a library without devices or a scan without
// memory size falls through with its reason.
StatusOr<std::unique_ptr<CardSource>> MakeProbed(
    StatusOr<std::unique_ptr<CardSource>> made) {
  if (!made.ok()) return made.status();
  StatusOr<Inventory> inventory = (*made)->Discover();
  if (!inventory.ok()) return inventory.status();
  return made;
}

StatusOr<std::unique_ptr<CardSource>> MakeAuto(
    const CardSourceOptions& options) {
  StatusOr<std::unique_ptr<CardSource>> efml = MakeProbed(MakeEfml(options));
  if (efml.ok()) {
    spdlog::info("card source: efml ({})", options.efml_library);
    return efml;
  }
  StatusOr<std::unique_ptr<CardSource>> scan = MakeProbed(MakeScan(options));
  if (scan.ok()) {
    spdlog::info("card source: scan of {} (efml unusable: {})", options.root,
                 efml.status().message());
    return scan;
  }
  return UnavailableError(
      "no card source works: efml: " + efml.status().message() +
      "; scan: " + scan.status().message());
}

}  // namespace

StatusOr<std::unique_ptr<CardSource>> MakeCardSource(
    const CardSourceOptions& options) {
  if (options.backend == "fake") return MakeFake(options);
  if (options.backend == "scan") return MakeScan(options);
  if (options.backend == "efml") return MakeEfml(options);
  if (options.backend == "auto") return MakeAuto(options);
  return InvalidArgumentError("unknown card backend \"" + options.backend +
                              "\" (valid: auto, efml, scan, fake)");
}

}  // namespace gcushare::efml
