// A human-readable table of an inventory, for `gcushare-cdi cards` and for
// logs: one line per card, then the shared control nodes. Pure function.
#ifndef GCUSHARE_EFML_CARD_TABLE_H_
#define GCUSHARE_EFML_CARD_TABLE_H_

#include <string>

#include "efml/card.h"

namespace gcushare::efml {

// INDEX  UUID  MEMORY  NUMA  PCI  DEVICE  HEALTH columns, aligned; "-" for
// unknown values; device numbers as major:minor when known.
std::string FormatCardTable(const Inventory& inventory);

}  // namespace gcushare::efml

#endif  // GCUSHARE_EFML_CARD_TABLE_H_
