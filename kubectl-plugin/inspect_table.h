// The inspect report as a table for people (kubectl inspect-gcushare):
//
//   NODE    CARD  HEALTH     USED/TOTAL  FREE     PODS
//   node-a  0     ok         12/16 GiB   4 GiB    default/infer-1: 4 GiB
//                                                 default/infer-2: 8 GiB
//           1     ok         0/16 GiB    16 GiB
//           all              12/32 GiB   20 GiB
//   TOTAL                    12/32 GiB   20 GiB
//
// Memory is shown in GiB, converted exactly from the node's units
// (40 units at memoryUnit "0.1" = 4 GiB); a node without a valid unit
// shows raw units and stays out of the TOTAL. "all" rows appear for nodes
// with more than one card, TOTAL for more than one node. Nodes the
// extender cannot place on are listed under the table with the reason.
//
// Pure functions; thread-safe.
#ifndef GCUSHARE_KUBECTL_PLUGIN_INSPECT_TABLE_H_
#define GCUSHARE_KUBECTL_PLUGIN_INSPECT_TABLE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kubectl-plugin/inspect_report.h"

namespace gcushare::kubectl_plugin {

struct TableOptions {
  // One row per pod; false: the PODS column holds the count.
  bool show_pods = true;
};

// `units` of `memory_unit` as "4 GiB", "12.5 GiB", "0.001 GiB"; "40 units"
// when the unit is not one of 1, 0.1, 0.01, 0.001.
std::string FormatAmount(uint64_t units, std::string_view memory_unit);

// The whole table, ending in a newline.
std::string FormatTable(const std::vector<NodeReport>& nodes,
                        const TableOptions& options);

}  // namespace gcushare::kubectl_plugin

#endif  // GCUSHARE_KUBECTL_PLUGIN_INSPECT_TABLE_H_
