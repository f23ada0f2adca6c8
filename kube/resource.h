// Which kind of object a request is about, and its REST paths
// (docs/protocols.md 3.1):
//   core group:  /api/v1/namespaces/<ns>/pods/<name>[/<subresource>]
//   named group: /apis/<group>/<version>/...
//   cluster-scoped or all namespaces: no /namespaces/<ns> segment.
//
// A value type; thread-compatible.
#ifndef GCUSHARE_KUBE_RESOURCE_H_
#define GCUSHARE_KUBE_RESOURCE_H_

#include <string>
#include <string_view>

namespace gcushare::kube {

struct Resource {
  std::string group;  // "" for the core group.
  std::string version = "v1";
  std::string plural;  // "pods"
  bool namespaced = true;

  static Resource Pods() { return {"", "v1", "pods", true}; }
  static Resource Nodes() { return {"", "v1", "nodes", false}; }
  static Resource Events() { return {"", "v1", "events", true}; }
  // Dynamic Resource Allocation (resource.k8s.io/v1, GA in Kubernetes 1.34).
  static Resource ResourceSlices() {
    return {"resource.k8s.io", "v1", "resourceslices", false};
  }
  static Resource ResourceClaims() {
    return {"resource.k8s.io", "v1", "resourceclaims", true};
  }
  static Resource ResourceClaimTemplates() {
    return {"resource.k8s.io", "v1", "resourceclaimtemplates", true};
  }
  static Resource DeviceClasses() {
    return {"resource.k8s.io", "v1", "deviceclasses", false};
  }

  // The collection: `ns` empty means all namespaces (or a cluster-scoped
  // resource).
  std::string CollectionPath(std::string_view ns) const;

  // One object, optionally a subresource ("status", "binding").
  std::string ObjectPath(std::string_view ns, std::string_view name,
                         std::string_view subresource = "") const;

  // "pods" or "deployments.apps", for messages.
  std::string DisplayName() const;
};

}  // namespace gcushare::kube

#endif  // GCUSHARE_KUBE_RESOURCE_H_
