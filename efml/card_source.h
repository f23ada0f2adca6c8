// CardSource: where the cards of this host come from.
//
// One small interface with three implementations (see card_source_factory.h):
// the vendor's libefml.so (dlopen), a scan of /dev and sysfs, and a fake YAML
// file for demos and tests. Discover() is called at start and then by
// HealthMonitor on every poll, so it must be cheap enough to run every few
// seconds and must reflect current health.
//
// Thread-safety: implementations are not required to be thread-safe; callers
// (HealthMonitor) serialise calls.
// Failure: Discover() returns a Status naming the problem (file and line for
// the fake backend, the sysfs path for the scan, the EFML function and its
// return code for the vendor library). It never throws.
#ifndef GCUSHARE_EFML_CARD_SOURCE_H_
#define GCUSHARE_EFML_CARD_SOURCE_H_

#include <string>

#include "efml/card.h"
#include "status/status.h"

namespace gcushare::efml {

class CardSource {
 public:
  virtual ~CardSource() = default;

  // "efml", "scan" or "fake": the backend actually in use.
  virtual std::string Name() const = 0;

  // The current inventory, normalised (see NormalizeInventory).
  virtual StatusOr<Inventory> Discover() = 0;
};

}  // namespace gcushare::efml

#endif  // GCUSHARE_EFML_CARD_SOURCE_H_
