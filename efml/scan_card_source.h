// ScanCardSource: finds cards by reading sysfs and /dev, without the vendor
// library.
//
// Everything is read under a root directory ("/" on a real host, a fake tree
// in tests); paths reported in the inventory never carry the root prefix.
// For each `<root>/sys/bus/pci/devices/<bdf>/{enflame,zixiao}/gcuN` (N a
// decimal index; other names are ignored):
//   - index N, PCI address <bdf>, device node /dev/gcuN;
//   - major:minor from `.../gcuN/dev` ("238:0"), left unknown if absent;
//   - NUMA node from `.../<bdf>/numa_node` (absent or -1: unknown);
//   - memory from `.../gcuN/mem_total_mib` (decimal MiB). This file is a
//     GCUShare convention, not something the Enflame driver is known to
//     provide; when it is absent the operator-supplied default
//     (--scan-memory-mib) is used, and with neither Discover() fails;
//   - UUID from `.../gcuN/uuid`, else "GCU-PCI-<bdf>";
//   - healthy exactly when `<root>/dev/gcuN` exists: a card whose node
//     vanished stays in the inventory as unhealthy.
// `<root>/dev/gcuctl`, when present, is reported as a control node.
//
// Ownership: holds only the root path and the default. Thread-safety:
// Discover() keeps no state, so concurrent calls are safe. Failure: NotFound
// naming the scanned directory when no card is found; FailedPrecondition when
// memory is unknown; InvalidArgument naming the sysfs file when one is
// malformed. Never throws.
#ifndef GCUSHARE_EFML_SCAN_CARD_SOURCE_H_
#define GCUSHARE_EFML_SCAN_CARD_SOURCE_H_

#include <cstdint>
#include <string>

#include "efml/card.h"
#include "efml/card_source.h"
#include "status/status.h"

namespace gcushare::efml {

class ScanCardSource : public CardSource {
 public:
  // `default_memory_mib` is used for cards without mem_total_mib; 0 means
  // there is no default.
  ScanCardSource(std::string root, uint64_t default_memory_mib);

  std::string Name() const override { return "scan"; }
  StatusOr<Inventory> Discover() override;

 private:
  std::string root_;
  uint64_t default_memory_mib_;
};

}  // namespace gcushare::efml

#endif  // GCUSHARE_EFML_SCAN_CARD_SOURCE_H_
