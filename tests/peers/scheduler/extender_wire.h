// The kube-scheduler side of the extender protocol (docs/protocols.md section
// 2): the request bodies it sends, byte for byte as kube-scheduler's Go code
// writes them (tests/conformance/extender-*.raw), and the replies it reads,
// decoded like Go's encoding/json does (a key names a field when equal to
// it ignoring case, the last such key in the document wins; unknown keys
// ignored; null allowed for every field).
//
// Written from the wire facts and kube-scheduler's Go types, with no code
// shared with the extender's own codec (extender/protocol.h), so that a bug
// in either cannot pass unseen: extender_conformance_test runs the two
// against each other and against the captures.
//
// Pure functions; thread-safe. Parse errors are InvalidArgument with a
// message in the style of Go's decoder ("json: cannot unmarshal ...").
#ifndef GCUSHARE_TESTS_PEERS_SCHEDULER_EXTENDER_WIRE_H_
#define GCUSHARE_TESTS_PEERS_SCHEDULER_EXTENDER_WIRE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "status/status.h"

namespace gcushare::scheduler {

using ObjectPtr = std::shared_ptr<const nlohmann::json>;

// ExtenderArgs for filter and prioritize:
//   {"Pod":<v1.Pod>,"Nodes":null,"NodeNames":["n1",...]}       (cache capable)
//   {"Pod":<v1.Pod>,"Nodes":{"metadata":{},"items":[<v1.Node>...]},
//    "NodeNames":null}                                         (otherwise)
// The pod and nodes are written without kind/apiVersion (informer objects
// carry no TypeMeta) and in Go field order (go_json.h).
std::string EncodeExtenderArgs(const nlohmann::json& pod,
                               const std::vector<ObjectPtr>& nodes,
                               bool node_cache_capable);

// ExtenderBindingArgs: {"PodName":..,"PodNamespace":..,"PodUID":..,"Node":..}
std::string EncodeBindingArgs(std::string_view pod_name,
                              std::string_view pod_namespace,
                              std::string_view pod_uid, std::string_view node);

// ExtenderFilterResult as kube-scheduler decodes it.
struct FilterReply {
  std::optional<std::vector<nlohmann::json>> nodes;  // Nodes.items
  std::optional<std::vector<std::string>> node_names;
  std::map<std::string, std::string> failed_nodes;
  std::map<std::string, std::string> failed_and_unresolvable;
  std::string error;
};

StatusOr<FilterReply> ParseFilterReply(std::string_view body);

struct HostPriority {
  std::string host;
  int64_t score = 0;
};

// HostPriorityList: [{"Host":..,"Score":..},...]; null is an empty list.
StatusOr<std::vector<HostPriority>> ParseHostPriorityList(
    std::string_view body);

// ExtenderBindingResult: the Error string ("" on success).
StatusOr<std::string> ParseBindingReply(std::string_view body);

// The pod or node without kind and apiVersion.
nlohmann::json WithoutTypeMeta(const nlohmann::json& object);

}  // namespace gcushare::scheduler

#endif  // GCUSHARE_TESTS_PEERS_SCHEDULER_EXTENDER_WIRE_H_
