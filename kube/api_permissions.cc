#include "kube/api_permissions.h"

#include <spdlog/spdlog.h>

#include <utility>

namespace gcushare::kube {

std::string PermissionKey(const Resource& resource,
                          std::string_view subresource) {
  std::string key = resource.group + "/" + resource.plural;
  if (!subresource.empty()) key += "/" + std::string(subresource);
  return key;
}

PermissionCheckingKubeClient::PermissionCheckingKubeClient(
    KubeClient* inner, std::string component, ApiPermissions allowed)
    : inner_(inner),
      component_(std::move(component)),
      allowed_(std::move(allowed)) {}

Status PermissionCheckingKubeClient::Check(const std::string& key,
                                           std::string_view verb) const {
  auto it = allowed_.find(key);
  if (it != allowed_.end() && it->second.count(std::string(verb)) > 0) {
    return OkStatus();
  }
  std::string message = component_ + " does not declare the API call \"" +
                        std::string(verb) + " " + key +
                        "\" (its api_permissions and its chart's RBAC "
                        "must list it); not sent";
  spdlog::error("{}", message);
  return PermissionDeniedError(std::move(message));
}

StatusOr<nlohmann::json> PermissionCheckingKubeClient::Get(
    const Resource& resource, std::string_view ns, std::string_view name) {
  GCUSHARE_RETURN_IF_ERROR(Check(PermissionKey(resource), "get"));
  return inner_->Get(resource, ns, name);
}

StatusOr<ObjectList> PermissionCheckingKubeClient::List(
    const Resource& resource, std::string_view ns, const ListOptions& options) {
  GCUSHARE_RETURN_IF_ERROR(Check(PermissionKey(resource), "list"));
  return inner_->List(resource, ns, options);
}

StatusOr<std::string> PermissionCheckingKubeClient::ListEach(
    const Resource& resource, std::string_view ns, const ListOptions& options,
    const ListItemCallback& each) {
  GCUSHARE_RETURN_IF_ERROR(Check(PermissionKey(resource), "list"));
  return inner_->ListEach(resource, ns, options, each);
}

Status PermissionCheckingKubeClient::Watch(const Resource& resource,
                                           std::string_view ns,
                                           const WatchOptions& options,
                                           const WatchCallback& callback) {
  GCUSHARE_RETURN_IF_ERROR(Check(PermissionKey(resource), "watch"));
  return inner_->Watch(resource, ns, options, callback);
}

StatusOr<nlohmann::json> PermissionCheckingKubeClient::Create(
    const Resource& resource, std::string_view ns,
    const nlohmann::json& object) {
  GCUSHARE_RETURN_IF_ERROR(Check(PermissionKey(resource), "create"));
  return inner_->Create(resource, ns, object);
}

StatusOr<nlohmann::json> PermissionCheckingKubeClient::Update(
    const Resource& resource, std::string_view ns,
    const nlohmann::json& object) {
  GCUSHARE_RETURN_IF_ERROR(Check(PermissionKey(resource), "update"));
  return inner_->Update(resource, ns, object);
}

StatusOr<nlohmann::json> PermissionCheckingKubeClient::UpdateStatus(
    const Resource& resource, std::string_view ns,
    const nlohmann::json& object) {
  GCUSHARE_RETURN_IF_ERROR(Check(PermissionKey(resource, "status"), "update"));
  return inner_->UpdateStatus(resource, ns, object);
}

Status PermissionCheckingKubeClient::Delete(const Resource& resource,
                                            std::string_view ns,
                                            std::string_view name,
                                            const DeleteOptions& options) {
  GCUSHARE_RETURN_IF_ERROR(Check(PermissionKey(resource), "delete"));
  return inner_->Delete(resource, ns, name, options);
}

StatusOr<nlohmann::json> PermissionCheckingKubeClient::Patch(
    const Resource& resource, std::string_view ns, std::string_view name,
    PatchType type, const nlohmann::json& patch, std::string_view subresource) {
  GCUSHARE_RETURN_IF_ERROR(
      Check(PermissionKey(resource, subresource), "patch"));
  return inner_->Patch(resource, ns, name, type, patch, subresource);
}

Status PermissionCheckingKubeClient::CreateBinding(
    std::string_view ns, std::string_view pod, std::string_view uid,
    std::string_view node,
    const std::map<std::string, std::string>& annotations) {
  GCUSHARE_RETURN_IF_ERROR(
      Check(PermissionKey(Resource::Pods(), "binding"), "create"));
  return inner_->CreateBinding(ns, pod, uid, node, annotations);
}

StatusOr<nlohmann::json> PermissionCheckingKubeClient::CreateEvent(
    std::string_view ns, const ObjectReference& involved, std::string_view type,
    std::string_view reason, std::string_view message,
    std::string_view reporting_component) {
  GCUSHARE_RETURN_IF_ERROR(Check(PermissionKey(Resource::Events()), "create"));
  return inner_->CreateEvent(ns, involved, type, reason, message,
                             reporting_component);
}

}  // namespace gcushare::kube
