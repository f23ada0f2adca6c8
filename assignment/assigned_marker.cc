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

namespace {

// Whether a failed PATCH can never succeed, so retrying is pointless: the
// pod is gone (NotFound), was re-created under a new uid (the uid
// precondition fails: Aborted, or AlreadyExists for a 409 of that reason)
// or the request is refused as invalid (InvalidArgument: 400, 422).
// Codes as kube/api_status.h maps the API server's answers.
bool IsFinal(const Status& status) {
  switch (status.code()) {
    case StatusCode::kNotFound:
    case StatusCode::kAborted:
    case StatusCode::kAlreadyExists:
    case StatusCode::kInvalidArgument:
      return true;
    default:
      return false;
  }
}

}  // namespace

bool AssignedMarker::Mark(std::string ns, std::string name, std::string uid) {
  const std::string key = uid.empty() ? ns + "/" + name : uid;
  return queue_.Add(key, [this, ns = std::move(ns), name = std::move(name),
                          uid = std::move(uid)] {
    Status status = Patch(client_, ns, name, uid);
    if (status.ok()) {
      spdlog::info("pod {}/{} marked {}=true", ns, name,
                   contract::kPodAssigned);
      return kube::BackgroundQueue::Outcome::kDone;
    }
    if (IsFinal(status)) {
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
