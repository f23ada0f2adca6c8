#include "kubectl-plugin/inspect_report.h"

#include <algorithm>
#include <limits>
#include <nlohmann/json.hpp>
#include <tuple>

#include "json/bounded_parse.h"

namespace gcushare::kubectl_plugin {
namespace {

using nlohmann::json;

Status Bad(const std::string& path, const std::string& want) {
  return InvalidArgumentError("inspect JSON: " + path + " is not " + want);
}

// Optional fields: absent or null leaves `out` alone.
Status ReadString(const json& object, const char* key, const std::string& path,
                  std::string* out) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return Status();
  if (!it->is_string()) return Bad(path + "." + key, "a string");
  *out = it->get<std::string>();
  return Status();
}

Status ReadUnsigned(const json& object, const char* key,
                    const std::string& path, uint64_t* out) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return Status();
  if (it->is_number_unsigned()) {
    *out = it->get<uint64_t>();
  } else if (it->is_number_integer() && it->get<int64_t>() >= 0) {
    *out = static_cast<uint64_t>(it->get<int64_t>());
  } else {
    return Bad(path + "." + key, "a non-negative integer");
  }
  return Status();
}

Status ReadBool(const json& object, const char* key, const std::string& path,
                bool* out) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return Status();
  if (!it->is_boolean()) return Bad(path + "." + key, "a boolean");
  *out = it->get<bool>();
  return Status();
}

StatusOr<PodOnCard> ParsePod(const json& pod, const std::string& path) {
  if (!pod.is_object()) return Bad(path, "an object");
  PodOnCard out;
  GCUSHARE_RETURN_IF_ERROR(ReadString(pod, "namespace", path, &out.ns));
  GCUSHARE_RETURN_IF_ERROR(ReadString(pod, "name", path, &out.name));
  GCUSHARE_RETURN_IF_ERROR(ReadUnsigned(pod, "usedGCU", path, &out.used));
  GCUSHARE_RETURN_IF_ERROR(ReadBool(pod, "assumed", path, &out.assumed));
  return out;
}

// `card` is one entry of the "devices" array; its index is its "id".
StatusOr<CardReport> ParseCard(const json& card, const std::string& path) {
  if (!card.is_object()) return Bad(path, "an object");
  CardReport out;
  auto id = card.find("id");
  if (id == card.end() || !id->is_number_integer() || id->get<int64_t>() < 0 ||
      id->get<int64_t>() > std::numeric_limits<int>::max()) {
    return Bad(path + ".id", "a card index");
  }
  out.index = id->get<int>();
  GCUSHARE_RETURN_IF_ERROR(ReadUnsigned(card, "totalGCU", path, &out.total));
  GCUSHARE_RETURN_IF_ERROR(ReadUnsigned(card, "usedGCU", path, &out.used));
  GCUSHARE_RETURN_IF_ERROR(ReadBool(card, "healthy", path, &out.healthy));
  auto pods = card.find("pods");
  if (pods != card.end() && !pods->is_null()) {
    if (!pods->is_array()) return Bad(path + ".pods", "an array");
    for (size_t i = 0; i < pods->size(); ++i) {
      GCUSHARE_ASSIGN_OR_RETURN(
          PodOnCard pod,
          ParsePod((*pods)[i], path + ".pods[" + std::to_string(i) + "]"));
      out.pods.push_back(std::move(pod));
    }
  }
  std::sort(out.pods.begin(), out.pods.end(),
            [](const PodOnCard& a, const PodOnCard& b) {
              return std::tie(a.ns, a.name) < std::tie(b.ns, b.name);
            });
  return out;
}

StatusOr<NodeReport> ParseNode(const json& node, const std::string& path) {
  if (!node.is_object()) return Bad(path, "an object");
  NodeReport out;
  GCUSHARE_RETURN_IF_ERROR(ReadString(node, "name", path, &out.name));
  if (out.name.empty()) return Bad(path + ".name", "a node name");
  const std::string where = path + "(" + out.name + ")";
  GCUSHARE_RETURN_IF_ERROR(
      ReadString(node, "memoryUnit", where, &out.memory_unit));
  GCUSHARE_RETURN_IF_ERROR(ReadUnsigned(node, "totalGCU", where, &out.total));
  GCUSHARE_RETURN_IF_ERROR(ReadUnsigned(node, "usedGCU", where, &out.used));
  GCUSHARE_RETURN_IF_ERROR(ReadString(node, "problem", where, &out.problem));
  auto devices = node.find("devices");
  if (devices != node.end() && !devices->is_null()) {
    if (!devices->is_array()) return Bad(where + ".devices", "an array");
    for (size_t i = 0; i < devices->size(); ++i) {
      GCUSHARE_ASSIGN_OR_RETURN(
          CardReport parsed,
          ParseCard((*devices)[i],
                    where + ".devices[" + std::to_string(i) + "]"));
      out.cards.push_back(std::move(parsed));
    }
  }
  std::sort(out.cards.begin(), out.cards.end(),
            [](const CardReport& a, const CardReport& b) {
              return a.index < b.index;
            });
  return out;
}

}  // namespace

StatusOr<std::vector<NodeReport>> ParseInspect(std::string_view body) {
  // Depth-bounded: an answer nested 100k deep is an error, not a crash.
  StatusOr<json> read = gcushare::json::ParseJson(body, "inspect JSON");
  if (!read.ok()) {
    return InvalidArgumentError(std::string(read.status().message()) + ": \"" +
                                std::string(body.substr(0, 80)) + "\"");
  }
  const json& parsed = *read;
  auto list = parsed.is_object() ? parsed.find("nodes") : parsed.end();
  if (list == parsed.end() || !list->is_array()) {
    return Bad("the body", "an object with a \"nodes\" array");
  }
  std::vector<NodeReport> nodes;
  for (size_t i = 0; i < list->size(); ++i) {
    GCUSHARE_ASSIGN_OR_RETURN(
        NodeReport node,
        ParseNode((*list)[i], "nodes[" + std::to_string(i) + "]"));
    nodes.push_back(std::move(node));
  }
  std::sort(
      nodes.begin(), nodes.end(),
      [](const NodeReport& a, const NodeReport& b) { return a.name < b.name; });
  return nodes;
}

}  // namespace gcushare::kubectl_plugin
