// ApiPermissions: the API calls a component makes, as RBAC names them
// ("<apiGroup>/<resource>[/<subresource>]" -> verbs, "/pods" for the core
// group), and the checking client that holds the component to them.
//
// Each component declares its permissions once, beside its code (e.g.
// extender/api_permissions.h), and wraps its KubeClient in a
// PermissionCheckingKubeClient: a call outside the declaration fails at
// once with PermissionDenied naming the missing rule, in tests as in
// production, so the declaration cannot fall behind the code. The charts'
// RBAC tests compare each (Cluster)Role with the same declaration, so the
// chart grants exactly what the code calls.
//
// Pure data and a stateless decorator: thread-safe as the wrapped client.
#ifndef GCUSHARE_KUBE_API_PERMISSIONS_H_
#define GCUSHARE_KUBE_API_PERMISSIONS_H_

#include <map>
#include <set>
#include <string>
#include <string_view>

#include "kube/kube_client.h"

namespace gcushare::kube {

using ApiPermissions = std::map<std::string, std::set<std::string>>;

// "<group>/<plural>" plus "/<subresource>" when not empty.
std::string PermissionKey(const Resource& resource,
                          std::string_view subresource = "");

// Decorates `inner` (borrowed; must outlive this) for `component`.
class PermissionCheckingKubeClient : public KubeClient {
 public:
  PermissionCheckingKubeClient(KubeClient* inner, std::string component,
                               ApiPermissions allowed);

  StatusOr<nlohmann::json> Get(const Resource& resource, std::string_view ns,
                               std::string_view name) override;
  StatusOr<ObjectList> List(const Resource& resource, std::string_view ns,
                            const ListOptions& options) override;
  StatusOr<std::string> ListEach(const Resource& resource, std::string_view ns,
                                 const ListOptions& options,
                                 const ListItemCallback& each) override;
  Status Watch(const Resource& resource, std::string_view ns,
               const WatchOptions& options,
               const WatchCallback& callback) override;
  StatusOr<nlohmann::json> Create(const Resource& resource, std::string_view ns,
                                  const nlohmann::json& object) override;
  StatusOr<nlohmann::json> Update(const Resource& resource, std::string_view ns,
                                  const nlohmann::json& object) override;
  StatusOr<nlohmann::json> UpdateStatus(const Resource& resource,
                                        std::string_view ns,
                                        const nlohmann::json& object) override;
  Status Delete(const Resource& resource, std::string_view ns,
                std::string_view name, const DeleteOptions& options) override;
  StatusOr<nlohmann::json> Patch(const Resource& resource, std::string_view ns,
                                 std::string_view name, PatchType type,
                                 const nlohmann::json& patch,
                                 std::string_view subresource) override;
  Status CreateBinding(
      std::string_view ns, std::string_view pod, std::string_view uid,
      std::string_view node,
      const std::map<std::string, std::string>& annotations) override;
  StatusOr<nlohmann::json> CreateEvent(
      std::string_view ns, const ObjectReference& involved,
      std::string_view type, std::string_view reason, std::string_view message,
      std::string_view reporting_component) override;

 private:
  // OK, or PermissionDenied naming the rule `component_` lacks.
  Status Check(const std::string& key, std::string_view verb) const;

  KubeClient* const inner_;
  const std::string component_;
  const ApiPermissions allowed_;
};

}  // namespace gcushare::kube

#endif  // GCUSHARE_KUBE_API_PERMISSIONS_H_
