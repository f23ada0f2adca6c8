// NodeLayout: what the device plugin published about a node's cards, read
// from a v1 Node object (docs/contracts.md "Node annotations").
//
// A node takes part in GCUShare when it carries the label
// enflame.com/gcushare=true, a known memory unit (enflame.com/gcu-memory-unit)
// and a card list (enflame.com/gcu-devices). When any of these is missing or
// malformed, `problem` says which, in words fit for kube-scheduler's
// FailedScheduling message, and the node is left out of placement.
//
// Pure; thread-compatible.
#ifndef GCUSHARE_EXTENDER_NODE_LAYOUT_H_
#define GCUSHARE_EXTENDER_NODE_LAYOUT_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "contract/annotations.h"
#include "contract/memory_unit.h"

namespace gcushare::extender {

struct NodeLayout {
  std::string name;
  std::string unit_text;  // As published, e.g. "0.1".
  contract::MemoryUnit unit;
  std::vector<contract::NodeCard> cards;
  // Empty when the node is usable; otherwise why it is not.
  std::string problem;

  bool usable() const { return problem.empty(); }
};

NodeLayout ParseNodeLayout(const nlohmann::json& node);

// The reason for a node that is not in the cache at all.
std::string NotSharingNodeReason();

}  // namespace gcushare::extender

#endif  // GCUSHARE_EXTENDER_NODE_LAYOUT_H_
