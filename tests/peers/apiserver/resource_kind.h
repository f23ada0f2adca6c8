// What the server knows about each resource it serves: names, scope,
// subresources, the fields a field selector may use, the strategic merge
// patch schema, and the zero-value object a BOOKMARK event carries.
//
// The core (/api/v1) resources: pods (namespaced, status and binding
// subresources), nodes (cluster-scoped, status subresource) and core/v1
// events (namespaced). Kinds of named API groups (/apis/<group>/<version>)
// are defined beside their strategies (dra_kinds.h, lease_kind.h) and added
// to the catalog by the server. The facts are those of kube-apiserver's
// registry for each type (pkg/registry/<group>/<type>/strategy.go and the Go
// types' patch tags).
//
// Ownership: ResourceCatalog owns its kinds; pointers it hands out live as
// long as it does. Thread-safety: immutable after construction.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_RESOURCE_KIND_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_RESOURCE_KIND_H_

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "tests/peers/apiserver/api_status.h"
#include "tests/peers/apiserver/field_selector.h"
#include "tests/peers/apiserver/json.h"
#include "tests/peers/apiserver/strategic_merge_patch.h"

namespace gcushare::apiserver {

struct ResourceKind {
  std::string group;  // "" for the core group (/api/v1).
  std::string version = "v1";
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
  // metadata.generation: 1 on create, +1 whenever spec changes.
  bool has_generation = false;
  // The type's own strategy steps (null: none), run after the generic ones
  // of resource_strategy.h. prepare_create gets the new object;
  // prepare_update the old object, the subresource ("" or "status") and the
  // updated object, after the generic carry-overs.
  std::function<void(Json& object)> prepare_create;
  std::function<void(const Json& old, std::string_view subresource,
                     Json& updated)>
      prepare_update;
  // Validation of a new object, and of an update (null: none beyond the
  // object name).
  std::function<std::vector<FieldError>(const Json& object)> validate_create;
  std::function<std::vector<FieldError>(
      const Json& old, std::string_view subresource, const Json& updated)>
      validate_update;

  // "v1" or "<group>/<version>": the objects' apiVersion.
  std::string api_version() const;
  // "pods", or "<resource>.<group>" as errors name it
  // ("leases.coordination.k8s.io").
  std::string qualified_resource() const;
  // "Pod", or "<Kind>.<group>" as 422 Invalid messages name it.
  std::string qualified_kind() const;
};

ResourceKind PodKind();
ResourceKind NodeKind();
ResourceKind EventKind();

class ResourceCatalog {
 public:
  // pods, nodes, events, then `more` (kinds of named groups).
  explicit ResourceCatalog(std::vector<ResourceKind> more = {});

  // The kind served at /api/v1/[namespaces/<ns>/]<resource>, or nullptr.
  const ResourceKind* Find(std::string_view resource) const;
  // The kind served at /apis/<group>/<version>/...<resource>, or nullptr.
  const ResourceKind* Find(std::string_view group, std::string_view version,
                           std::string_view resource) const;
  // Whether some kind is served under /apis/<group>/<version>.
  bool ServesGroupVersion(std::string_view group,
                          std::string_view version) const;
  const std::vector<ResourceKind>& kinds() const { return kinds_; }

 private:
  std::vector<ResourceKind> kinds_;
};

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_RESOURCE_KIND_H_
