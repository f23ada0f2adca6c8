// The command-line flags that choose where cards come from, shared by every
// daemon that discovers cards (gcushare-device-plugin,
// gcushare-dra-driver): --efml-backend, --fake-cards, --efml-library,
// --scan-memory-mib.
//
// Thread-compatible; call from main's thread.
#ifndef GCUSHARE_EFML_CARD_SOURCE_FLAGS_H_
#define GCUSHARE_EFML_CARD_SOURCE_FLAGS_H_

#include <CLI/CLI.hpp>

#include "efml/card_source_factory.h"

namespace gcushare::efml {

// Adds the flags, writing into `options` (which must outlive parsing).
void AddCardSourceFlags(CLI::App& app, CardSourceOptions* options);

// After parsing: --fake-cards given without --efml-backend selects the fake
// backend.
void ResolveCardSourceFlags(const CLI::App& app, CardSourceOptions* options);

}  // namespace gcushare::efml

#endif  // GCUSHARE_EFML_CARD_SOURCE_FLAGS_H_
