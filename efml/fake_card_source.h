// FakeCardSource: cards described by a YAML file, for demos and tests.
//
// The file format (the contract; configs/fake-cards.yaml is the example):
//
//   cards:
//   - index: 0                 # required, integer >= 0, unique
//     uuid: GCU-U0000000001    # required, non-empty, unique
//     memoryMiB: 16384         # required, integer > 0
//     device: /dev/gcu0        # optional, absolute; default /dev/gcu<index>
//     numa: 0                  # optional, integer >= 0; absent = unknown
//     healthy: true            # optional, default true
//
// `cards: []` declares a host without cards. Any other key is an error, so
// that typos (memoryMB) do not silently fall back to defaults.
#ifndef GCUSHARE_EFML_FAKE_CARD_SOURCE_H_
#define GCUSHARE_EFML_FAKE_CARD_SOURCE_H_

#include <string>
#include <string_view>

#include "efml/card.h"
#include "efml/card_source.h"
#include "status/status.h"

namespace gcushare::efml {

// Parses the text of a fake cards file. Pure: touches no file and fills no
// device numbers. `file_name` is only used in messages, which look like
// "fake cards file /x.yaml line 4: memoryMiB must be positive, got 0"
// (1-based line). Returns the inventory normalised (sorted by index) or
// InvalidArgument. Never throws.
StatusOr<Inventory> ParseFakeCards(std::string_view yaml,
                                   std::string_view file_name);

// Re-reads and re-parses its file on every Discover(), so editing the file
// (e.g. flipping `healthy`) is seen by the next poll. Device numbers are
// filled from stat() when the device path exists on the host and is a
// character device; otherwise they stay empty.
//
// Ownership: holds only the file name. Thread-safety: Discover() keeps no
// state, so concurrent calls are safe. Failure: a missing or unreadable file
// yields the errno-derived Status naming the file (NotFound for a missing
// file); a malformed file yields InvalidArgument from ParseFakeCards.
class FakeCardSource : public CardSource {
 public:
  explicit FakeCardSource(std::string file_name);

  std::string Name() const override { return "fake"; }
  StatusOr<Inventory> Discover() override;

  const std::string& file_name() const { return file_name_; }

 private:
  std::string file_name_;
};

}  // namespace gcushare::efml

#endif  // GCUSHARE_EFML_FAKE_CARD_SOURCE_H_
