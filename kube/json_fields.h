// Reads fields of API objects by path without throwing: a missing field, a
// field of another type or a non-object along the way all read as empty.
//
// Pure functions; thread-safe.
#ifndef GCUSHARE_KUBE_JSON_FIELDS_H_
#define GCUSHARE_KUBE_JSON_FIELDS_H_

#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace gcushare::kube {

// The node at `path` ({"metadata", "name"}), or null when absent.
const nlohmann::json* FindPath(const nlohmann::json& object,
                               std::initializer_list<std::string_view> path);

// The string at `path`, or "" when absent or not a string.
std::string StringAt(const nlohmann::json& object,
                     std::initializer_list<std::string_view> path);

// metadata.namespace, metadata.name and metadata.resourceVersion.
inline std::string NamespaceOf(const nlohmann::json& object) {
  return StringAt(object, {"metadata", "namespace"});
}
inline std::string NameOf(const nlohmann::json& object) {
  return StringAt(object, {"metadata", "name"});
}
inline std::string ResourceVersionOf(const nlohmann::json& object) {
  return StringAt(object, {"metadata", "resourceVersion"});
}

}  // namespace gcushare::kube

#endif  // GCUSHARE_KUBE_JSON_FIELDS_H_
