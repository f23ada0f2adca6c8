#include "cdi/cli/generate.h"

#include <memory>

#include "cdi/builder.h"

namespace gcushare::cdi {

std::string GenerateReport::Summary() const {
  std::string line =
      (write.written ? "wrote " : "unchanged ") + write.path + ": " +
      std::to_string(cards) + (cards == 1 ? " card, " : " cards, ") +
      std::to_string(devices) + " devices (cdiVersion " + cdi_version + ")";
  if (!write.removed_path.empty()) line += "; removed " + write.removed_path;
  return line;
}

StatusOr<GenerateReport> Generate(const GenerateOptions& options) {
  GCUSHARE_ASSIGN_OR_RETURN(std::unique_ptr<efml::CardSource> source,
                            efml::MakeCardSource(options.source));
  GCUSHARE_ASSIGN_OR_RETURN(efml::Inventory inventory, source->Discover());
  GCUSHARE_ASSIGN_OR_RETURN(Spec spec, BuildSpec(inventory));
  GenerateReport report;
  GCUSHARE_ASSIGN_OR_RETURN(
      report.write, WriteSpec(spec, options.output_dir, options.format));
  report.cards = inventory.cards.size();
  report.devices = spec.devices.size();
  report.cdi_version = spec.cdi_version;
  return report;
}

}  // namespace gcushare::cdi
