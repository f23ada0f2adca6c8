#include "tests/peers/scheduler/extender_wire.h"

#include <cctype>
#include <cstdint>
#include <sstream>
#include <utility>

#include "tests/peers/scheduler/go_json.h"

namespace gcushare::scheduler {
namespace {

// A decoded body with its keys in document order: Go's decoder assigns
// fields as it meets keys, so the order decides which duplicate wins.
using GoValue = nlohmann::ordered_json;

// Go's strings.EqualFold-like key folding used by encoding/json for field
// names: ASCII letters ignoring case, and the two non-ASCII letters that
// fold onto ASCII ones (U+212A KELVIN SIGN onto k, U+017F LONG S onto s).
bool GoFoldEqual(std::string_view key, std::string_view field) {
  size_t i = 0;
  for (char want : field) {
    const char lower =
        static_cast<char>(std::tolower(static_cast<unsigned char>(want)));
    if (i < key.size() &&
        std::tolower(static_cast<unsigned char>(key[i])) == lower) {
      ++i;
    } else if (lower == 'k' && key.substr(i, 3) == "\xE2\x84\xAA") {
      i += 3;
    } else if (lower == 's' && key.substr(i, 2) == "\xC5\xBF") {
      i += 2;
    } else {
      return false;
    }
  }
  return i == key.size();
}

// The value Go's encoding/json would store in struct field `field`: every
// key equal to the field name ignoring case maps to it, and the last such
// key in the document wins. Null when absent.
const GoValue* Field(const GoValue& object, std::string_view field) {
  const GoValue* found = nullptr;
  for (auto it = object.begin(); it != object.end(); ++it) {
    if (GoFoldEqual(it.key(), field)) found = &it.value();
  }
  return found;
}

std::string JsonTypeName(const GoValue& value) {
  switch (value.type()) {
    case GoValue::value_t::object:
      return "object";
    case GoValue::value_t::array:
      return "array";
    case GoValue::value_t::string:
      return "string";
    case GoValue::value_t::boolean:
      return "bool";
    default:
      return "number";
  }
}

Status CannotUnmarshal(const GoValue& value, std::string_view field,
                       std::string_view go_type) {
  return InvalidArgumentError("json: cannot unmarshal " + JsonTypeName(value) +
                              " into Go struct field " + std::string(field) +
                              " of type " + std::string(go_type));
}

// The first JSON value of the body, as Go's json.Decoder.Decode reads it
// (later bytes are not looked at).
StatusOr<GoValue> DecodeFirstValue(std::string_view body) {
  std::istringstream stream{std::string(body)};
  GoValue value;
  try {
    stream >> value;
  } catch (const GoValue::exception& e) {
    bool blank = true;
    for (char c : body) {
      if (!std::isspace(static_cast<unsigned char>(c))) blank = false;
    }
    if (blank) return InvalidArgumentError("EOF");
    return InvalidArgumentError(std::string("invalid JSON: ") + e.what());
  }
  return value;
}

StatusOr<std::map<std::string, std::string>> StringMap(const GoValue* value,
                                                       std::string_view field) {
  std::map<std::string, std::string> out;
  if (value == nullptr || value->is_null()) return out;
  if (!value->is_object()) {
    return CannotUnmarshal(*value, field, "v1.FailedNodesMap");
  }
  for (auto it = value->begin(); it != value->end(); ++it) {
    if (it->is_null()) {
      out[it.key()] = "";
    } else if (!it->is_string()) {
      return CannotUnmarshal(*it, field, "string");
    } else {
      out[it.key()] = it->get<std::string>();
    }
  }
  return out;
}

}  // namespace

nlohmann::json WithoutTypeMeta(const nlohmann::json& object) {
  nlohmann::json copy = object;
  if (copy.is_object()) {
    copy.erase("kind");
    copy.erase("apiVersion");
  }
  return copy;
}

std::string EncodeExtenderArgs(const nlohmann::json& pod,
                               const std::vector<ObjectPtr>& nodes,
                               bool node_cache_capable) {
  std::string out = "{\"Pod\":";
  out += GoJson(WithoutTypeMeta(pod), kGoPod);
  if (node_cache_capable) {
    out += ",\"Nodes\":null,\"NodeNames\":[";
    bool first = true;
    for (const ObjectPtr& node : nodes) {
      if (!first) out += ',';
      first = false;
      std::string name;
      auto metadata = node->find("metadata");
      if (metadata != node->end() && metadata->is_object()) {
        name = metadata->value("name", "");
      }
      AppendGoJsonString(name, out);
    }
    out += "]}";
    return out;
  }
  out += ",\"Nodes\":{\"metadata\":{},\"items\":";
  if (nodes.empty()) {
    out += "null";
  } else {
    out += '[';
    bool first = true;
    for (const ObjectPtr& node : nodes) {
      if (!first) out += ',';
      first = false;
      out += GoJson(WithoutTypeMeta(*node), kGoNode);
    }
    out += ']';
  }
  out += "},\"NodeNames\":null}";
  return out;
}

std::string EncodeBindingArgs(std::string_view pod_name,
                              std::string_view pod_namespace,
                              std::string_view pod_uid, std::string_view node) {
  std::string out = "{\"PodName\":";
  AppendGoJsonString(pod_name, out);
  out += ",\"PodNamespace\":";
  AppendGoJsonString(pod_namespace, out);
  out += ",\"PodUID\":";
  AppendGoJsonString(pod_uid, out);
  out += ",\"Node\":";
  AppendGoJsonString(node, out);
  out += '}';
  return out;
}

StatusOr<FilterReply> ParseFilterReply(std::string_view body) {
  GCUSHARE_ASSIGN_OR_RETURN(GoValue value, DecodeFirstValue(body));
  FilterReply reply;
  if (value.is_null()) return reply;
  if (!value.is_object()) {
    return InvalidArgumentError("json: cannot unmarshal " +
                                JsonTypeName(value) +
                                " into Go value of type "
                                "v1.ExtenderFilterResult");
  }
  if (const GoValue* nodes = Field(value, "Nodes");
      nodes != nullptr && !nodes->is_null()) {
    if (!nodes->is_object()) {
      return CannotUnmarshal(*nodes, "ExtenderFilterResult.Nodes",
                             "v1.NodeList");
    }
    std::vector<nlohmann::json> items;
    const GoValue* list = Field(*nodes, "items");
    if (list != nullptr && !list->is_null()) {
      if (!list->is_array()) {
        return CannotUnmarshal(*list, "ExtenderFilterResult.Nodes.items",
                               "[]v1.Node");
      }
      for (const GoValue& item : *list) {
        if (!item.is_object() && !item.is_null()) {
          return CannotUnmarshal(item, "ExtenderFilterResult.Nodes.items",
                                 "v1.Node");
        }
        items.push_back(item.is_null() ? nlohmann::json::object()
                                       : nlohmann::json::parse(item.dump()));
      }
    }
    reply.nodes = std::move(items);
  }
  if (const GoValue* names = Field(value, "NodeNames");
      names != nullptr && !names->is_null()) {
    if (!names->is_array()) {
      return CannotUnmarshal(*names, "ExtenderFilterResult.NodeNames",
                             "[]string");
    }
    std::vector<std::string> list;
    for (const GoValue& name : *names) {
      if (name.is_null()) {
        list.emplace_back();
      } else if (!name.is_string()) {
        return CannotUnmarshal(name, "ExtenderFilterResult.NodeNames",
                               "string");
      } else {
        list.push_back(name.get<std::string>());
      }
    }
    reply.node_names = std::move(list);
  }
  GCUSHARE_ASSIGN_OR_RETURN(reply.failed_nodes,
                            StringMap(Field(value, "FailedNodes"),
                                      "ExtenderFilterResult.FailedNodes"));
  GCUSHARE_ASSIGN_OR_RETURN(
      reply.failed_and_unresolvable,
      StringMap(Field(value, "FailedAndUnresolvableNodes"),
                "ExtenderFilterResult.FailedAndUnresolvableNodes"));
  if (const GoValue* error = Field(value, "Error");
      error != nullptr && !error->is_null()) {
    if (!error->is_string()) {
      return CannotUnmarshal(*error, "ExtenderFilterResult.Error", "string");
    }
    reply.error = error->get<std::string>();
  }
  return reply;
}

StatusOr<std::vector<HostPriority>> ParseHostPriorityList(
    std::string_view body) {
  GCUSHARE_ASSIGN_OR_RETURN(GoValue value, DecodeFirstValue(body));
  std::vector<HostPriority> list;
  if (value.is_null()) return list;
  if (!value.is_array()) {
    return InvalidArgumentError("json: cannot unmarshal " +
                                JsonTypeName(value) +
                                " into Go value of type v1.HostPriorityList");
  }
  for (const GoValue& entry : value) {
    HostPriority priority;
    if (entry.is_null()) {
      list.push_back(priority);
      continue;
    }
    if (!entry.is_object()) {
      return InvalidArgumentError("json: cannot unmarshal " +
                                  JsonTypeName(entry) +
                                  " into Go value of type v1.HostPriority");
    }
    if (const GoValue* host = Field(entry, "Host");
        host != nullptr && !host->is_null()) {
      if (!host->is_string()) {
        return CannotUnmarshal(*host, "HostPriority.Host", "string");
      }
      priority.host = host->get<std::string>();
    }
    if (const GoValue* score = Field(entry, "Score");
        score != nullptr && !score->is_null()) {
      // Go refuses fractions and values outside int64.
      if (!score->is_number_integer() ||
          (score->is_number_unsigned() &&
           score->get<uint64_t>() > uint64_t{INT64_MAX})) {
        return CannotUnmarshal(*score, "HostPriority.Score", "int64");
      }
      priority.score = score->get<int64_t>();
    }
    list.push_back(std::move(priority));
  }
  return list;
}

StatusOr<std::string> ParseBindingReply(std::string_view body) {
  GCUSHARE_ASSIGN_OR_RETURN(GoValue value, DecodeFirstValue(body));
  if (value.is_null()) return std::string();
  if (!value.is_object()) {
    return InvalidArgumentError("json: cannot unmarshal " +
                                JsonTypeName(value) +
                                " into Go value of type "
                                "v1.ExtenderBindingResult");
  }
  const GoValue* error = Field(value, "Error");
  if (error == nullptr || error->is_null()) return std::string();
  if (!error->is_string()) {
    return CannotUnmarshal(*error, "ExtenderBindingResult.Error", "string");
  }
  return error->get<std::string>();
}

}  // namespace gcushare::scheduler
