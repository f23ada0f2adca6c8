#include "tests/peers/apiserver/object_meta.h"

#include <cctype>
#include <utility>

namespace gcushare::apiserver {
namespace {

// Moves the listed keys of `obj`, in this order, in front of the others.
void OrderKeys(Json& obj, std::initializer_list<const char*> order) {
  if (!obj.is_object()) return;
  Json out = Json::object();
  for (const char* key : order) {
    auto it = obj.find(key);
    if (it != obj.end()) out[key] = std::move(*it);
  }
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    if (!out.contains(it.key())) out[it.key()] = std::move(it.value());
  }
  obj = std::move(out);
}

}  // namespace

std::string MetaString(const Json& object, std::string_view field) {
  if (!object.is_object()) return "";
  auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return "";
  auto it = meta->find(std::string(field));
  if (it == meta->end() || !it->is_string()) return "";
  return it->get<std::string>();
}

const Json* MetaLabels(const Json& object) {
  if (!object.is_object()) return nullptr;
  auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return nullptr;
  auto it = meta->find("labels");
  if (it == meta->end()) return nullptr;
  return &*it;
}

std::string StoreKey(std::string_view ns, std::string_view name) {
  if (ns.empty()) return std::string(name);
  return std::string(ns) + "/" + std::string(name);
}

void SetResourceVersion(Json& object, int64_t rv) {
  object["metadata"]["resourceVersion"] = std::to_string(rv);
  CanonicalizeObject(object);
}

int64_t ParseResourceVersion(std::string_view rv) {
  if (rv.empty() || rv.size() > 18) return -1;
  int64_t v = 0;
  for (char c : rv) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return -1;
    v = v * 10 + (c - '0');
  }
  return v;
}

void CanonicalizeObject(Json& object) {
  if (!object.is_object()) return;
  auto meta = object.find("metadata");
  if (meta != object.end()) {
    OrderKeys(*meta, {"name", "generateName", "namespace", "selfLink", "uid",
                      "resourceVersion", "generation", "creationTimestamp",
                      "deletionTimestamp", "deletionGracePeriodSeconds",
                      "labels", "annotations", "ownerReferences", "finalizers",
                      "managedFields"});
  }
  OrderKeys(object, {"kind", "apiVersion", "metadata", "spec", "status"});
}

}  // namespace gcushare::apiserver
