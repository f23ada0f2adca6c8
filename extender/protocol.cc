#include "extender/protocol.h"

#include <simdjson.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <set>
#include <utility>

#include "contract/pod_request.h"
#include "json/pruned_parse.h"
#include "json/string_writer.h"

namespace gcushare::extender {
namespace {

// Bodies up to this size are read with parsers the calling thread keeps
// between requests (kube-scheduler's filter body for 500 names is about
// 15 KB): a parser's buffers, sized by the text, were allocated, faulted in
// and freed for every request. A larger body (up to the HTTP server's
// limit) gets parsers of its own, freed after, so that no HTTP worker
// keeps megabytes for one odd request.
constexpr size_t kKeptParserBytes = size_t{256} << 10;

StatusOr<nlohmann::json> ParseObject(
    std::string_view body, std::string_view what,
    const json::FieldTree& keep = json::FieldTree()) {
  if (body.empty()) {
    return InvalidArgumentError(std::string(what) + ": empty body");
  }
  // simdjson lexes, nlohmann holds (json/pruned_parse.h): 1.3-1.7x faster
  // than nlohmann's parser on a 500-name ExtenderArgs, and what `keep`
  // drops is never built (//extender/benchmarks:decode_benchmark).
  StatusOr<nlohmann::json> result = nlohmann::json();
  if (body.size() > kKeptParserBytes) {
    result = json::ParsePruned(body, keep, what);
  } else {
    // This thread's; created at its first body, freed when it ends.
    thread_local json::PrunedParser parser;
    result = parser.Parse(body, keep, what);
  }
  GCUSHARE_ASSIGN_OR_RETURN(nlohmann::json parsed, std::move(result));
  if (!parsed.is_object()) {
    return InvalidArgumentError(std::string(what) + ": not a JSON object");
  }
  return parsed;
}

// A string field; absent or null gives "".
StatusOr<std::string> StringField(const nlohmann::json& object,
                                  std::string_view key) {
  const nlohmann::json* value = FindField(object, key);
  if (value == nullptr || value->is_null()) return std::string();
  if (!value->is_string()) {
    return InvalidArgumentError(std::string(key) + " is not a string");
  }
  return value->get<std::string>();
}

// What ParseExtenderArgs keeps: Pod (of it, what ComputePodRequest and
// PodIdentity read), Nodes and NodeNames, each under any key equal to its
// name ignoring case, so that FindField chooses among them as it would in
// the whole body. Everything else (a pod's labels, env, volumes, status)
// is skipped unbuilt.
json::FieldTree ExtenderArgsFields() {
  json::FieldTree pod = contract::PodRequestFields();
  for (const char* field : {"name", "namespace", "uid", "creationTimestamp"}) {
    pod.Add({"metadata", field});
  }
  pod.Add({"spec", "nodeName"});
  json::FieldTree args;
  // NodeNames: ReadNodeNames().
  args.FoldCase().AddTree({"Pod"}, pod).Add({"Nodes"});
  return args;
}

// ExtenderArgs' NodeNames read straight into strings from `body` (valid
// JSON, already checked by ParsePruned): 500 names become 500 strings,
// not 500 JSON values first. The key is the one FindField would choose in
// the whole parsed object: "NodeNames" exactly, else the smallest key
// equal to it ignoring case; of repeated keys the last (as the parsed
// object keeps it). nullopt when absent or null.
StatusOr<std::optional<std::vector<std::string>>> ReadNodeNames(
    std::string_view body) {
  namespace od = simdjson::ondemand;
  using Names = std::optional<std::vector<std::string>>;
  const auto malformed = [](simdjson::error_code error) {
    return InvalidArgumentError(std::string("ExtenderArgs: malformed JSON (") +
                                simdjson::error_message(error) + ")");
  };
  // The chosen key so far and what its value reads as.
  std::optional<std::string> chosen;
  StatusOr<Names> names = Names();
  // This thread's buffer and parser for bodies up to kKeptParserBytes
  // (see there), else ones of this call's.
  thread_local std::string kept_buffer;
  thread_local od::parser kept_parser;
  std::string own_buffer;
  od::parser own_parser;
  const bool kept = body.size() <= kKeptParserBytes;
  std::string& buffer = kept ? kept_buffer : own_buffer;
  od::parser& parser = kept ? kept_parser : own_parser;
  buffer.reserve(body.size() + simdjson::SIMDJSON_PADDING);
  buffer.assign(body);
  const simdjson::padded_string_view padded(buffer.data(), buffer.size(),
                                            buffer.capacity());
  od::document document;
  if (auto error = parser.iterate(padded).get(document))
    return malformed(error);
  od::object object;
  if (auto error = document.get_object().get(object)) return malformed(error);
  for (auto field_result : object) {
    od::field field;
    if (auto error = std::move(field_result).get(field)) {
      return malformed(error);
    }
    std::string_view key;
    if (auto error = field.unescaped_key().get(key)) return malformed(error);
    if (!json::EqualFoldAscii(key, "NodeNames")) continue;
    const bool exact = key == "NodeNames";
    if (chosen.has_value() && *chosen == "NodeNames" && !exact) continue;
    if (chosen.has_value() && !exact && *chosen != "NodeNames" &&
        key > *chosen) {
      continue;
    }
    chosen = std::string(key);
    od::value value = field.value();
    od::json_type type;
    if (auto error = value.type().get(type)) return malformed(error);
    if (type == od::json_type::null) {
      names = Names();
      continue;
    }
    if (type != od::json_type::array) {
      names = InvalidArgumentError("ExtenderArgs: NodeNames is not a list");
      continue;
    }
    od::array array;
    if (auto error = value.get_array().get(array)) return malformed(error);
    std::vector<std::string> list;
    list.reserve(512);
    bool strings = true;
    for (auto item : array) {
      std::string_view name;
      if (item.get_string().get(name) != simdjson::SUCCESS) {
        strings = false;
        break;  // The rest of the array is skipped with the field.
      }
      list.emplace_back(name);
    }
    if (strings) {
      names = Names(std::move(list));
    } else {
      names =
          InvalidArgumentError("ExtenderArgs: NodeNames holds a non-string");
    }
  }
  return names;
}

}  // namespace

const nlohmann::json* FindField(const nlohmann::json& object,
                                std::string_view key) {
  if (!object.is_object()) return nullptr;
  auto exact = object.find(std::string(key));
  if (exact != object.end()) return &*exact;
  for (auto it = object.begin(); it != object.end(); ++it) {
    if (json::EqualFoldAscii(it.key(), key)) return &it.value();
  }
  return nullptr;
}

std::vector<std::string> ExtenderArgs::CandidateNames() const {
  if (node_names.has_value()) return *node_names;
  std::vector<std::string> names;
  if (nodes.has_value()) {
    for (const nlohmann::json& node : *nodes) {
      const nlohmann::json* metadata = FindField(node, "metadata");
      const nlohmann::json* name =
          metadata != nullptr ? FindField(*metadata, "name") : nullptr;
      names.push_back(name != nullptr && name->is_string()
                          ? name->get<std::string>()
                          : std::string());
    }
  }
  return names;
}

std::vector<std::string> ExtenderArgs::TakeCandidateNames() {
  if (node_names.has_value()) return std::exchange(*node_names, {});
  return CandidateNames();
}

StatusOr<ExtenderArgs> ParseExtenderArgs(std::string_view body) {
  static const json::FieldTree* const kKeep =
      new json::FieldTree(ExtenderArgsFields());  // Immutable; never freed.
  GCUSHARE_ASSIGN_OR_RETURN(nlohmann::json parsed,
                            ParseObject(body, "ExtenderArgs", *kKeep));
  ExtenderArgs args;
  const nlohmann::json* pod = FindField(parsed, "Pod");
  if (pod == nullptr || !pod->is_object()) {
    return InvalidArgumentError("ExtenderArgs: Pod missing or not an object");
  }
  // Moved out, not copied: `parsed` is ours and dropped on return (a pod
  // is hundreds of small values; 500 names as many strings).
  args.pod = std::move(const_cast<nlohmann::json&>(*pod));

  const nlohmann::json* nodes = FindField(parsed, "Nodes");
  if (nodes != nullptr && !nodes->is_null()) {
    const nlohmann::json* items =
        nodes->is_object() ? FindField(*nodes, "items") : nullptr;
    if (items == nullptr || !(items->is_array() || items->is_null())) {
      return InvalidArgumentError(
          "ExtenderArgs: Nodes is not a NodeList with items");
    }
    std::vector<nlohmann::json> list;
    if (items->is_array()) {
      for (const nlohmann::json& node : *items) {
        if (!node.is_object()) {
          return InvalidArgumentError(
              "ExtenderArgs: Nodes.items holds a "
              "non-object");
        }
        list.push_back(std::move(const_cast<nlohmann::json&>(node)));
      }
    }
    args.nodes = std::move(list);
  }

  // Emplaced only when present: gcc 12 at -O2 took the move-assignment of
  // one optional<vector> into another for a read of uninitialized memory
  // (-Wmaybe-uninitialized, a false positive).
  GCUSHARE_ASSIGN_OR_RETURN(std::optional<std::vector<std::string>> names,
                            ReadNodeNames(body));
  if (names.has_value()) args.node_names.emplace(std::move(*names));
  if (!args.nodes.has_value() && !args.node_names.has_value()) {
    return InvalidArgumentError(
        "ExtenderArgs: neither Nodes nor NodeNames given");
  }
  return args;
}

namespace {

std::vector<FailedNode> Borrow(
    const std::map<std::string, std::string>& reasons) {
  std::vector<FailedNode> out;
  out.reserve(reasons.size());
  for (const auto& [name, reason] : reasons) out.push_back({name, reason});
  return out;
}

// Whether `text` is written as it is inside a JSON string (no byte to
// escape): then `"text"` is one copy.
bool Plain(std::string_view text) {
  for (const char c : text) {
    if (static_cast<unsigned char>(c) < 0x20 || c == '"' || c == '\\') {
      return false;
    }
  }
  return true;
}

// Appends `"name":` then `value` (already JSON) to `out` with one resize
// and two copies; `name` must be Plain().
void AppendPlainMember(std::string_view name, std::string_view value,
                       std::string& out) {
  const size_t at = out.size();
  out.resize(at + name.size() + 3 + value.size());
  char* to = out.data() + at;
  *to++ = '"';
  std::memcpy(to, name.data(), name.size());
  to += name.size();
  *to++ = '"';
  *to++ = ':';
  std::memcpy(to, value.data(), value.size());
}

// `"key":{"name":"reason",...}` (in the order of `reasons`) appended to
// `out`. A
// reason equal to the one before (as binpack's one "outranked" text for
// hundreds of nodes, or the insufficient-memory reason) is escaped once and
// copied.
void AppendReasons(std::string_view key, const std::vector<FailedNode>& reasons,
                   std::string& out) {
  out += '"';
  out += key;
  out += "\":{";
  std::string_view last;
  std::string escaped;  // `last` as a JSON string.
  bool first = true;
  for (const auto& [name, reason] : reasons) {
    if (!first) out += ',';
    first = false;
    if (escaped.empty() || reason.data() != last.data() ||
        reason.size() != last.size()) {
      if (escaped.empty() || reason != last) {
        escaped.clear();
        json::AppendJsonString(reason, escaped);
      }
      last = reason;
    }
    if (Plain(name)) {
      AppendPlainMember(name, escaped, out);
    } else {
      json::AppendJsonString(name, out);
      out += ':';
      out += escaped;
    }
  }
  out += '}';
}

// The reply after its Nodes/NodeNames part.
void AppendFailures(const std::vector<FailedNode>& failed,
                    const std::vector<FailedNode>& unresolvable,
                    std::string_view error, std::string& out) {
  AppendReasons("FailedNodes", failed, out);
  out += ',';
  AppendReasons("FailedAndUnresolvableNodes", unresolvable, out);
  out += ",\"Error\":";
  json::AppendJsonString(error, out);
  out += '}';
}

void AppendNodeNames(const std::vector<std::string>& passed, std::string& out) {
  out += "{\"Nodes\":null,\"NodeNames\":[";
  for (size_t i = 0; i < passed.size(); ++i) {
    if (i > 0) out += ',';
    const std::string& name = passed[i];
    if (Plain(name)) {
      const size_t at = out.size();
      out.resize(at + name.size() + 2);
      out[at] = '"';
      std::memcpy(out.data() + at + 1, name.data(), name.size());
      out.back() = '"';
    } else {
      json::AppendJsonString(name, out);
    }
  }
  out += "],";
}

}  // namespace

std::string EncodeFilterNames(const std::vector<std::string>& passed,
                              const std::vector<FailedNode>& failed,
                              const std::vector<FailedNode>& unresolvable) {
  std::string out;
  out.reserve(64 + passed.size() * 24 + failed.size() * 96 +
              unresolvable.size() * 96);
  AppendNodeNames(passed, out);
  AppendFailures(failed, unresolvable, "", out);
  return out;
}

std::string EncodeFilterResult(const ExtenderArgs& args,
                               const FilterResult& result) {
  // Written into one buffer (the same bytes as nlohmann's dump of the
  // ordered object): this answers every scheduling cycle, with hundreds of
  // names (//extender/benchmarks:scale_benchmark).
  std::string out;
  out.reserve(64 + result.passed.size() * 24 +
              (result.failed.size() + result.failed_unresolvable.size()) * 96);
  if (args.node_names.has_value() || !args.nodes.has_value()) {
    AppendNodeNames(result.passed, out);
  } else {
    // Return the Node objects the scheduler sent, in its order.
    std::set<std::string_view> pass(result.passed.begin(), result.passed.end());
    nlohmann::json items = nlohmann::json::array();
    std::vector<std::string> names = args.CandidateNames();
    for (size_t i = 0; i < names.size(); ++i) {
      if (pass.count(names[i])) items.push_back((*args.nodes)[i]);
    }
    out += "{\"Nodes\":{\"metadata\":{},\"items\":";
    out += items.dump();
    out += "},\"NodeNames\":null,";
  }
  AppendFailures(Borrow(result.failed), Borrow(result.failed_unresolvable),
                 result.error, out);
  return out;
}

std::string EncodeFilterError(std::string_view error) {
  nlohmann::ordered_json out;
  out["Nodes"] = nullptr;
  out["NodeNames"] = nullptr;
  out["FailedNodes"] = nullptr;
  out["Error"] = error;
  return out.dump();
}

std::string EncodeHostPriorityList(
    const std::vector<std::pair<std::string, int64_t>>& scores) {
  // Written directly (same bytes as nlohmann's dump of the ordered objects):
  // this runs for every candidate node of every scheduling cycle.
  std::string out = "[";
  out.reserve(scores.size() * 40 + 2);
  for (const auto& [host, score] : scores) {
    if (out.size() > 1) out += ',';
    out += "{\"Host\":";
    json::AppendJsonString(host, out);
    out += ",\"Score\":";
    out += std::to_string(score);
    out += '}';
  }
  out += ']';
  return out;
}

StatusOr<BindingArgs> ParseBindingArgs(std::string_view body) {
  GCUSHARE_ASSIGN_OR_RETURN(nlohmann::json parsed,
                            ParseObject(body, "ExtenderBindingArgs"));
  BindingArgs args;
  GCUSHARE_ASSIGN_OR_RETURN(args.pod_name, StringField(parsed, "PodName"));
  GCUSHARE_ASSIGN_OR_RETURN(args.pod_namespace,
                            StringField(parsed, "PodNamespace"));
  GCUSHARE_ASSIGN_OR_RETURN(args.pod_uid, StringField(parsed, "PodUID"));
  GCUSHARE_ASSIGN_OR_RETURN(args.node, StringField(parsed, "Node"));
  if (args.pod_name.empty() || args.node.empty()) {
    return InvalidArgumentError(
        "ExtenderBindingArgs: PodName and Node are required");
  }
  if (args.pod_namespace.empty()) args.pod_namespace = "default";
  return args;
}

std::string EncodeBindingResult(std::string_view error) {
  nlohmann::ordered_json out;
  out["Error"] = error;
  return out.dump();
}

}  // namespace gcushare::extender
