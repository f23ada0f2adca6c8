// What the server knows about each resource it serves: names, scope,
// subresources, the fields a field selector may use, the strategic merge
// patch schema, and the zero-value object a BOOKMARK event carries.
//
// Three resources exist: pods (namespaced, status and binding subresources),
// nodes (cluster-scoped, status subresource) and core/v1 events (namespaced).
// The facts are those of kube-apiserver's registry for each type
// (pkg/registry/core/<type>/strategy.go and the core/v1 Go types' patch
// tags).
//
// Ownership: ResourceCatalog owns its kinds; pointers it hands out live as
// long as it does. Thread-safety: immutable after construction.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_RESOURCE_KIND_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_RESOURCE_KIND_H_

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "tests/peers/apiserver/field_selector.h"
#include "tests/peers/apiserver/json.h"
#include "tests/peers/apiserver/strategic_merge_patch.h"

namespace gcushare::apiserver {

struct ResourceKind {
  std::string resource;   // "pods": URL segment and Status details.kind.
  std::string kind;       // "Pod"
  std::string list_kind;  // "PodList"
  bool namespaced = true;
  bool has_status = false;   // A /status subresource exists.
  bool has_binding = false;  // A /binding subresource exists (pods).
  // DELETE answers with the deleted object (pods) rather than a Success
  // Status carrying name, kind and uid (nodes, events).
  bool return_deleted_object = false;
  // The value of every selectable field of an object (all keys, always).
  std::function<FieldSet(const Json& object)> selectable_fields;
  MergeSchema merge_schema;
  // The Go zero value of the type as the real server serializes it, without
  // kind and apiVersion (a BOOKMARK's object adds those and the RV).
  Json zero_value;
};

ResourceKind PodKind();
ResourceKind NodeKind();
ResourceKind EventKind();

class ResourceCatalog {
 public:
  ResourceCatalog();  // pods, nodes, events.

  // The kind served at /api/v1/[namespaces/<ns>/]<resource>, or nullptr.
  const ResourceKind* Find(std::string_view resource) const;
  const std::vector<ResourceKind>& kinds() const { return kinds_; }

 private:
  std::vector<ResourceKind> kinds_;
};

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_RESOURCE_KIND_H_
