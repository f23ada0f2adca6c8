// NodeView: what the extender reads from one v1 Node object: its name, and
// either the card layout its device plugin published (contract/node_layout.h,
// the one decoder) or why the node is out of placement.
//
// A node takes part in GCUShare when it carries the label
// enflame.com/gcushare=true and a layout that decodes. Otherwise `problem`
// says why, in words fit for kube-scheduler's FailedScheduling message.
//
// Pure; thread-compatible. Never throws, whatever the JSON.
#ifndef GCUSHARE_PLACEMENT_NODE_VIEW_H_
#define GCUSHARE_PLACEMENT_NODE_VIEW_H_

#include <nlohmann/json.hpp>
#include <string>

#include "contract/node_layout.h"

namespace gcushare::placement {

struct NodeView {
  std::string name;
  // The memory unit annotation as published (also when unknown), for
  // inspect and metrics.
  std::string unit_text;
  contract::NodeLayout layout;  // Empty unless usable().
  // Empty when the node is usable; otherwise why it is not.
  std::string problem;

  bool usable() const { return problem.empty(); }
};

NodeView ReadNodeView(const nlohmann::json& node);

// The reason for a node without the sharing label (or not in the cache).
std::string NotSharingNodeReason();

}  // namespace gcushare::placement

#endif  // GCUSHARE_PLACEMENT_NODE_VIEW_H_
