#include "kube/json_fields.h"

namespace gcushare::kube {

const nlohmann::json* FindPath(const nlohmann::json& object,
                               std::initializer_list<std::string_view> path) {
  const nlohmann::json* node = &object;
  for (std::string_view key : path) {
    if (!node->is_object()) return nullptr;
    auto it = node->find(key);
    if (it == node->end()) return nullptr;
    node = &*it;
  }
  return node;
}

std::string StringAt(const nlohmann::json& object,
                     std::initializer_list<std::string_view> path) {
  const nlohmann::json* node = FindPath(object, path);
  if (node == nullptr || !node->is_string()) return "";
  return node->get<std::string>();
}

}  // namespace gcushare::kube
