#include "assignment/assigned_marker.h"

#include <spdlog/spdlog.h>

#include <nlohmann/json.hpp>

#include "contract/annotations.h"
#include "contract/names.h"

namespace gcushare::assignment {

AssignedMarker::AssignedMarker(kube::KubeClient* client, base::Clock* clock,
                               base::BackoffOptions backoff, size_t capacity)
    : client_(client),
      queue_(clock, {"assigned marker", capacity, capacity, backoff}) {}

Status AssignedMarker::Patch(kube::KubeClient* client, const std::string& ns,
                             const std::string& name, const std::string& uid) {
  nlohmann::json patch = {
      {"metadata", {{"annotations", contract::EncodeAssignedMark()}}}};
  if (!uid.empty()) patch["metadata"]["uid"] = uid;  // Same incarnation.
  return client
      ->Patch(kube::Resource::Pods(), ns, name, kube::PatchType::kMerge, patch,
              "")
      .status();
}

void AssignedMarker::Mark(std::string ns, std::string name, std::string uid) {
  const std::string key = uid.empty() ? ns + "/" + name : uid;
  queue_.Add(key, [this, ns = std::move(ns), name = std::move(name),
                   uid = std::move(uid)] {
    Status status = Patch(client_, ns, name, uid);
    if (status.ok()) {
      spdlog::info("pod {}/{} marked {}=true", ns, name,
                   contract::kPodAssigned);
      return kube::BackgroundQueue::Outcome::kDone;
    }
    if (status.http_code() == 404 || status.http_code() == 409 ||
        status.http_code() == 422) {
      spdlog::info("pod {}/{}: not marked, it is gone or re-created ({})", ns,
                   name, status.message());
      return kube::BackgroundQueue::Outcome::kDone;
    }
    spdlog::warn("pod {}/{}: marking {}=true failed, will retry: {}", ns, name,
                 contract::kPodAssigned, status.message());
    return kube::BackgroundQueue::Outcome::kRetry;
  });
}

}  // namespace gcushare::assignment
