// Builds the CardSource that --efml-backend asks for.
#ifndef GCUSHARE_EFML_CARD_SOURCE_FACTORY_H_
#define GCUSHARE_EFML_CARD_SOURCE_FACTORY_H_

#include <cstdint>
#include <memory>
#include <string>

#include "efml/card_source.h"
#include "status/status.h"

namespace gcushare::efml {

struct CardSourceOptions {
  // "auto" (EFML, then the scan), "efml", "scan" or "fake".
  std::string backend = "auto";
  // fake: the YAML cards file (required for "fake").
  std::string fake_cards_file;
  // efml: the library to dlopen.
  std::string efml_library = "libefml.so";
  // scan: the root under which /dev and /sys are read ("/" on a real host; a
  // temp dir in tests).
  std::string root = "/";
  // scan: card memory in MiB when sysfs does not say (0: sysfs must say).
  uint64_t scan_memory_mib = 0;
};

// Returns the source, or an error naming the backend and why it is not
// usable. For "auto" it tries EFML, then the scan, logs which it used and,
// when neither works, returns an error that gives both reasons. Under "auto"
// a backend is used only if it builds and its first Discover() succeeds;
// the explicit backends are returned as built ("efml" does load and
// initialise the library) and report problems on Discover().
StatusOr<std::unique_ptr<CardSource>> MakeCardSource(
    const CardSourceOptions& options);

}  // namespace gcushare::efml

#endif  // GCUSHARE_EFML_CARD_SOURCE_FACTORY_H_
