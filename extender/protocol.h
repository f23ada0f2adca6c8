// The kube-scheduler extender wire protocol (docs/protocols.md section 2):
// parse what kube-scheduler sends, encode what it reads.
//
// kube-scheduler's Go types have no json tags, so it sends the Go field names
// (`Pod`, `Nodes`, `NodeNames`, `PodName`, ...) and decodes replies with
// case-insensitive key matching. We parse keys the way Go's encoding/json
// does (exact match first, then case-insensitive) and always reply with the
// capitalised names.
//
// Pure functions; thread-compatible. Errors are InvalidArgument with a
// message fit for an HTTP 400 body.
#ifndef GCUSHARE_EXTENDER_PROTOCOL_H_
#define GCUSHARE_EXTENDER_PROTOCOL_H_

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "status/status.h"

namespace gcushare::extender {

// Filter and prioritize request (ExtenderArgs).
struct ExtenderArgs {
  // The v1 Pod, pruned to what ComputePodRequest (contract/pod_request.h)
  // and PodIdentity (extender/pod_usage.h) read: metadata name, namespace,
  // uid, creationTimestamp; spec.nodeName; each (init) container's name,
  // restartPolicy and resources.
  nlohmann::json pod;
  // nodeCacheCapable=false: the full Node objects (Nodes.items).
  std::optional<std::vector<nlohmann::json>> nodes;
  // nodeCacheCapable=true: the candidate node names.
  std::optional<std::vector<std::string>> node_names;

  // The candidate names, in the scheduler's order: NodeNames when given
  // (kube-scheduler sends one form; with both, NodeNames wins, as in
  // EncodeFilterResult's reply), else each Node's metadata.name, matched
  // like every key here (exact, then case-insensitive); a Node without a
  // string name gives "". The one reading of the candidates: filter,
  // prioritize and the reply all use it. Never throws.
  std::vector<std::string> CandidateNames() const;
  // CandidateNames(), moving NodeNames' strings out instead of copying them
  // (node_names keeps its presence; the pod and Nodes stay).
  std::vector<std::string> TakeCandidateNames();
};

StatusOr<ExtenderArgs> ParseExtenderArgs(std::string_view body);

// Filter reply (ExtenderFilterResult).
struct FilterResult {
  // Nodes that pass, by name. When the request carried full nodes, the reply
  // carries the matching Node objects (from `args`) instead of names.
  std::vector<std::string> passed;
  std::map<std::string, std::string> failed;
  std::map<std::string, std::string> failed_unresolvable;
  std::string error;
};

// Encodes `result` in the form that matches the request: NodeNames for
// nodeCacheCapable=true, Nodes {"metadata":{},"items":[...]} otherwise.
std::string EncodeFilterResult(const ExtenderArgs& args,
                               const FilterResult& result);

// A node that failed filter and why, both borrowed from the caller.
struct FailedNode {
  std::string_view name;
  std::string_view reason;
};

// The NodeNames form of a filter reply (nodeCacheCapable=true) from
// borrowed names and reasons, without building maps: the object
// EncodeFilterResult() writes for the equal FilterResult, with the failed
// nodes in the order given (kube-scheduler's, as the candidates came),
// not sorted as a std::map keeps them: FailedNodes and
// FailedAndUnresolvableNodes are Go maps, whose JSON order means nothing
// (sorting 500 names was a twelfth of a filter). A name given twice is
// written twice (kube-scheduler never sends one twice; Go's decoder keeps
// the last), so callers give equal names equal reasons.
std::string EncodeFilterNames(const std::vector<std::string>& passed,
                              const std::vector<FailedNode>& failed,
                              const std::vector<FailedNode>& unresolvable);

// An error reply (filter fails for this attempt).
std::string EncodeFilterError(std::string_view error);

// Prioritize reply (HostPriorityList): [{"Host":..., "Score":0..10}, ...].
std::string EncodeHostPriorityList(
    const std::vector<std::pair<std::string, int64_t>>& scores);

// Bind request (ExtenderBindingArgs).
struct BindingArgs {
  std::string pod_name;
  std::string pod_namespace;
  std::string pod_uid;
  std::string node;
};

StatusOr<BindingArgs> ParseBindingArgs(std::string_view body);

// Bind reply (ExtenderBindingResult): {"Error":""} on success.
std::string EncodeBindingResult(std::string_view error);

// The value under `key` in `object`, matched like Go's encoding/json: the
// exact key if present, else the first key equal ignoring ASCII case; null
// when absent.
const nlohmann::json* FindField(const nlohmann::json& object,
                                std::string_view key);

}  // namespace gcushare::extender

#endif  // GCUSHARE_EXTENDER_PROTOCOL_H_
