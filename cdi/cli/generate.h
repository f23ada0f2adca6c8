// `gcushare-cdi generate`: discover the cards, build the spec, validate it
// and write it (builder.h + writer.h behind one call).
//
// Thread-safety: none needed (one call per process). Failure: a Status whose
// message names the problem (the fake cards file and line, the card, the
// EFML library, the output path); nothing is written on any error, so an
// existing spec stays as it was. Never throws.
#ifndef GCUSHARE_CDI_CLI_GENERATE_H_
#define GCUSHARE_CDI_CLI_GENERATE_H_

#include <cstddef>
#include <string>

#include "cdi/writer.h"
#include "contract/names.h"
#include "efml/card_source_factory.h"
#include "status/status.h"

namespace gcushare::cdi {

struct GenerateOptions {
  efml::CardSourceOptions source;
  std::string output_dir = std::string(contract::kCdiDynamicDir);
  Format format = Format::kJson;
};

struct GenerateReport {
  WriteResult write;
  size_t cards = 0;
  size_t devices = 0;
  std::string cdi_version;

  // "wrote <path>: 8 cards, 17 devices (cdiVersion 0.5.0)", or "unchanged
  // <path>: ..." when the file already held this spec; "; removed <path>"
  // is appended when our file of the other format was removed.
  std::string Summary() const;
};

StatusOr<GenerateReport> Generate(const GenerateOptions& options);

}  // namespace gcushare::cdi

#endif  // GCUSHARE_CDI_CLI_GENERATE_H_
