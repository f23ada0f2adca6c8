#include "kube/kube_client.h"

#include <utility>

namespace gcushare::kube {

std::string_view WatchEventTypeName(WatchEventType type) {
  switch (type) {
    case WatchEventType::kAdded:
      return "ADDED";
    case WatchEventType::kModified:
      return "MODIFIED";
    case WatchEventType::kDeleted:
      return "DELETED";
    case WatchEventType::kBookmark:
      return "BOOKMARK";
  }
  return "UNKNOWN";
}

StatusOr<std::string> KubeClient::ListEach(const Resource& resource,
                                           std::string_view ns,
                                           const ListOptions& options,
                                           const ListItemCallback& each) {
  GCUSHARE_ASSIGN_OR_RETURN(ObjectList list, List(resource, ns, options));
  if (options.expected_items) options.expected_items(list.items.size());
  for (nlohmann::json& item : list.items) {
    if (options.take_item_text && options.take_item_text(item.dump())) {
      continue;
    }
    each(std::move(item));
  }
  return std::move(list.resource_version);
}

StatusOr<nlohmann::json> KubeClient::UpdateStatus(
    const Resource& resource, std::string_view /*ns*/,
    const nlohmann::json& /*object*/) {
  return UnimplementedError("update " + resource.DisplayName() +
                            "/status: not implemented by this client");
}

std::string_view PatchContentType(PatchType type) {
  switch (type) {
    case PatchType::kMerge:
      return "application/merge-patch+json";
    case PatchType::kStrategicMerge:
      return "application/strategic-merge-patch+json";
    case PatchType::kJsonPatch:
      return "application/json-patch+json";
  }
  return "application/merge-patch+json";
}

}  // namespace gcushare::kube
