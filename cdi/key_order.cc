#include "cdi/key_order.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>

namespace gcushare::cdi {
namespace {

// Every key of the CDI 1.1.0 schema, in the order of the schema's tables.
constexpr std::array<std::string_view, 33> kSchemaOrder = {
    // Spec and device.
    "cdiVersion", "kind", "name", "annotations", "devices", "containerEdits",
    // ContainerEdits.
    "env", "deviceNodes", "mounts", "hooks", "additionalGids", "intelRdt",
    "netDevices",
    // DeviceNode.
    "path", "hostPath", "type", "major", "minor", "fileMode", "permissions",
    "uid", "gid",
    // Mount (hostPath and type above).
    "containerPath", "options",
    // Hook (path and env above).
    "hookName", "args", "timeout",
    // IntelRdt.
    "closID", "l3CacheSchema", "memBwSchema", "schemata", "enableMonitoring",
    // NetDevice (name above).
    "hostInterfaceName"};

// Position in kSchemaOrder; unknown keys after all known ones.
size_t Rank(std::string_view key) {
  auto it = std::find(kSchemaOrder.begin(), kSchemaOrder.end(), key);
  return static_cast<size_t>(it - kSchemaOrder.begin());
}

}  // namespace

std::vector<std::string> OrderedKeys(const nlohmann::json& object) {
  std::vector<std::string> keys;
  if (!object.is_object()) return keys;
  for (auto it = object.begin(); it != object.end(); ++it) {
    keys.push_back(it.key());
  }
  // Stable on the alphabetical order nlohmann::json keeps.
  std::stable_sort(keys.begin(), keys.end(),
                   [](const std::string& a, const std::string& b) {
                     return Rank(a) < Rank(b);
                   });
  return keys;
}

nlohmann::ordered_json InWritingOrder(const nlohmann::json& tree) {
  if (tree.is_object()) {
    nlohmann::ordered_json object = nlohmann::ordered_json::object();
    for (const std::string& key : OrderedKeys(tree)) {
      object[key] = InWritingOrder(tree.at(key));
    }
    return object;
  }
  if (tree.is_array()) {
    nlohmann::ordered_json array = nlohmann::ordered_json::array();
    for (const nlohmann::json& item : tree) {
      array.push_back(InWritingOrder(item));
    }
    return array;
  }
  // Scalars keep their type.
  switch (tree.type()) {
    case nlohmann::json::value_t::string:
      return tree.get<std::string>();
    case nlohmann::json::value_t::boolean:
      return tree.get<bool>();
    case nlohmann::json::value_t::number_integer:
      return tree.get<int64_t>();
    case nlohmann::json::value_t::number_unsigned:
      return tree.get<uint64_t>();
    case nlohmann::json::value_t::number_float:
      return tree.get<double>();
    default:
      return nullptr;
  }
}

}  // namespace gcushare::cdi
