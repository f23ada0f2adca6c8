// Builds GCUShare's CDI spec from the cards of this host (docs/contracts.md
// "CDI").
//
// kind enflame.com/gcu; devices, in this order: one per card named by its
// index ("0", "1", ... by card index), one per card named by its UUID, and
// "all". A card's devices get its node, /dev/gcu<index> in the container
// (hostPath set only when the host node lives elsewhere), and
// ENFLAME_VISIBLE_DEVICES=<index>; "all" gets every card's node and
// ENFLAME_VISIBLE_DEVICES=<i>,<j>,... . Shared control nodes
// (Inventory::control_nodes) go into the spec-level containerEdits. Nodes
// are character devices; major/minor are written only when known (the
// runtime fills them from stat() otherwise). cdiVersion is the lowest
// version the result needs (0.5.0, because names start with digits).
//
// Pure and deterministic (the same inventory gives the same spec);
// thread-safe; never throws.
#ifndef GCUSHARE_CDI_BUILDER_H_
#define GCUSHARE_CDI_BUILDER_H_

#include "cdi/spec.h"
#include "efml/card.h"
#include "status/status.h"

namespace gcushare::cdi {

// Returns InvalidArgument, naming the card, when there are no cards, when a
// UUID is not a valid CDI device name ("card 3: uuid \"GCU/1\" cannot be a
// CDI device name: '/' is not allowed (...)") or when it equals another
// device's name (an index name such as "1", or "all"). The inventory is
// expected to be normalised (efml::NormalizeInventory); two cards with the
// same index are reported too.
StatusOr<Spec> BuildSpec(const efml::Inventory& inventory);

}  // namespace gcushare::cdi

#endif  // GCUSHARE_CDI_BUILDER_H_
