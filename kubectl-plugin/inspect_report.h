// The extender's inspect JSON (GET /gcushare-scheduler/inspect and
// /inspect/<node>) as plain structs, for kubectl-inspect-gcushare.
//
// Shape (extender/inspect.cc, the vendor manual's format), for /inspect and
// /inspect/<node> alike:
//   {"nodes":[{"name","totalGCU","usedGCU","availableGCU",
//    "devices":[{"id","totalGCU","usedGCU","availableGCU",
//      "pods":[{"name","namespace","uid","createTime","usedGCU",
//               "assumed"}],"healthy"}],"memoryUnit",["problem"]}]}
// Amounts are in the node's memory units. Unknown keys are ignored; keys
// we need must have the right type.
//
// Pure functions; thread-safe. Failure: InvalidArgument naming the JSON
// path of the bad value; never throws.
#ifndef GCUSHARE_KUBECTL_PLUGIN_INSPECT_REPORT_H_
#define GCUSHARE_KUBECTL_PLUGIN_INSPECT_REPORT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "status/status.h"

namespace gcushare::kubectl_plugin {

struct PodOnCard {
  std::string ns;
  std::string name;
  uint64_t used = 0;     // Units.
  bool assumed = false;  // Bound by the extender, not yet confirmed.
};

struct CardReport {
  int index = 0;
  uint64_t total = 0;
  uint64_t used = 0;
  bool healthy = true;
  std::vector<PodOnCard> pods;  // Sorted by namespace, name.
};

struct NodeReport {
  std::string name;
  std::string memory_unit;  // "1", "0.1", ...; may be empty.
  uint64_t total = 0;
  uint64_t used = 0;
  std::string problem;            // Why the extender cannot place on it, if so.
  std::vector<CardReport> cards;  // Sorted by index.
};

// Parses the body of /inspect or /inspect/<node>; nodes sorted by name.
StatusOr<std::vector<NodeReport>> ParseInspect(std::string_view body);

}  // namespace gcushare::kubectl_plugin

#endif  // GCUSHARE_KUBECTL_PLUGIN_INSPECT_REPORT_H_
