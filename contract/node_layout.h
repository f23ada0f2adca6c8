// NodeLayout: the cards of one node as the device plugin publishes them in
// its Node's annotations (docs/contracts.md "Node label and annotations"), with
// the one encoder and the one decoder every component uses:
//   enflame.com/gcu-memory-unit: the memory unit ("0.1");
//   enflame.com/gcu-devices: the card list (EncodeNodeCards' JSON array).
// The device plugin writes it (NodeAnnotationsPatch); the extender reads it
// for placement and the NRI plugin for each card's memory.
//
// To add a field: add it to the struct, write it in EncodeNodeLayout, read
// it in DecodeNodeLayout (absent must stay valid: older plugins omit it),
// list a new annotation in kNodeLayoutKeys and add rows to
// node_layout_test.cc. A per-card field goes in NodeCard
// (contract/annotations.h) instead.
//
// Pure functions; thread-compatible value type.
#ifndef GCUSHARE_CONTRACT_NODE_LAYOUT_H_
#define GCUSHARE_CONTRACT_NODE_LAYOUT_H_

#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

#include "contract/annotations.h"
#include "contract/memory_unit.h"
#include "contract/names.h"
#include "status/status.h"

namespace gcushare::contract {

// The annotations the layout is encoded in: what a reader must keep of a
// Node to decode it (the extender's informer keeps only these).
inline constexpr std::string_view kNodeLayoutKeys[] = {kNodeMemoryUnit,
                                                       kNodeDevices};

struct NodeLayout {
  MemoryUnit unit;
  std::vector<NodeCard> cards;  // In the plugin's order (by index).

  friend bool operator==(const NodeLayout&, const NodeLayout&) = default;
};

// The two annotations as a JSON object of strings, for a Node's
// metadata.annotations (a merge patch or a stored object).
nlohmann::json EncodeNodeLayout(const NodeLayout& layout);

// Reads the layout from a Node's metadata.annotations object (null or not an
// object reads as no annotations). An annotation that is absent, empty or
// not a string counts as missing. Never throws.
//   NotFound: neither annotation is there (no device plugin published yet);
//   InvalidArgument: one is missing, or malformed (the message names it).
// The messages are fit for kube-scheduler's FailedScheduling event.
StatusOr<NodeLayout> DecodeNodeLayout(const nlohmann::json& annotations);

}  // namespace gcushare::contract

#endif  // GCUSHARE_CONTRACT_NODE_LAYOUT_H_
