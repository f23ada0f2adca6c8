#include "placement/node_view.h"

#include "contract/names.h"
#include "kube/json_fields.h"

namespace gcushare::placement {

std::string NotSharingNodeReason() {
  return "node is not a GCUShare node (label " +
         std::string(contract::kSharingNodeLabel) + "=" +
         std::string(contract::kSharingNodeLabelValue) + " missing)";
}

NodeView ReadNodeView(const nlohmann::json& node) {
  NodeView view;
  view.name = kube::NameOf(node);
  if (kube::StringAt(node,
                     {"metadata", "labels", contract::kSharingNodeLabel}) !=
      contract::kSharingNodeLabelValue) {
    view.problem = NotSharingNodeReason();
    return view;
  }
  view.unit_text = kube::StringAt(
      node, {"metadata", "annotations", contract::kNodeMemoryUnit});
  const nlohmann::json* annotations =
      kube::FindPath(node, {"metadata", "annotations"});
  StatusOr<contract::NodeLayout> layout = contract::DecodeNodeLayout(
      annotations != nullptr ? *annotations : nlohmann::json());
  if (!layout.ok()) {
    view.problem = layout.status().message();
    return view;
  }
  view.layout = std::move(*layout);
  return view;
}

}  // namespace gcushare::placement
