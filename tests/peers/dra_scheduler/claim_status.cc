#include "tests/peers/dra_scheduler/claim_status.h"

#include <utility>

#include "kube/json_fields.h"
#include "kube/resource.h"

namespace gcushare::dra_scheduler {
namespace {

constexpr int kConflictRetries = 5;

bool HasFinalizer(const nlohmann::json& claim) {
  const nlohmann::json* finalizers =
      kube::FindPath(claim, {"metadata", "finalizers"});
  if (finalizers == nullptr || !finalizers->is_array()) return false;
  for (const nlohmann::json& f : *finalizers) {
    if (f == kClaimFinalizer) return true;
  }
  return false;
}

bool IsAllocated(const nlohmann::json& claim) {
  const nlohmann::json* allocation =
      kube::FindPath(claim, {"status", "allocation"});
  return allocation != nullptr && !allocation->is_null();
}

bool ReservedFor(const nlohmann::json& claim, const std::string& uid) {
  const nlohmann::json* reserved =
      kube::FindPath(claim, {"status", "reservedFor"});
  if (reserved == nullptr || !reserved->is_array()) return false;
  for (const nlohmann::json& entry : *reserved) {
    if (kube::StringAt(entry, {"uid"}) == uid) return true;
  }
  return false;
}

// The owning pod's UID when a pod controls the claim, else "".
std::string ControllingPod(const nlohmann::json& claim) {
  const nlohmann::json* owners =
      kube::FindPath(claim, {"metadata", "ownerReferences"});
  if (owners == nullptr || !owners->is_array()) return "";
  for (const nlohmann::json& owner : *owners) {
    if (owner.is_object() && owner.value("controller", false) &&
        kube::StringAt(owner, {"kind"}) == "Pod") {
      return kube::StringAt(owner, {"uid"});
    }
  }
  return "";
}

StatusOr<nlohmann::json> TryReserve(kube::KubeClient* client,
                                    nlohmann::json claim,
                                    const nlohmann::json* allocation,
                                    const nlohmann::json& pod) {
  const kube::Resource claims = kube::Resource::ResourceClaims();
  const std::string ns = kube::NamespaceOf(claim);
  if (allocation != nullptr && !HasFinalizer(claim)) {
    claim["metadata"]["finalizers"].push_back(kClaimFinalizer);
    GCUSHARE_ASSIGN_OR_RETURN(claim, client->Update(claims, ns, claim));
  }
  const std::string uid = kube::StringAt(pod, {"metadata", "uid"});
  if (allocation != nullptr) claim["status"]["allocation"] = *allocation;
  if (!ReservedFor(claim, uid)) {
    claim["status"]["reservedFor"].push_back(
        {{"resource", "pods"}, {"name", kube::NameOf(pod)}, {"uid", uid}});
  }
  return client->UpdateStatus(claims, ns, claim);
}

}  // namespace

StatusOr<nlohmann::json> ReserveClaim(kube::KubeClient* client,
                                      const nlohmann::json& claim,
                                      const nlohmann::json* allocation,
                                      const nlohmann::json& pod) {
  nlohmann::json current = claim;
  for (int attempt = 0;; ++attempt) {
    StatusOr<nlohmann::json> result =
        TryReserve(client, current, allocation, pod);
    if (result.ok() || result.status().http_code() != 409 ||
        attempt == kConflictRetries) {
      return result;
    }
    GCUSHARE_ASSIGN_OR_RETURN(
        current, client->Get(kube::Resource::ResourceClaims(),
                             kube::NamespaceOf(claim), kube::NameOf(claim)));
    if (allocation != nullptr && IsAllocated(current)) {
      return AbortedError("claim " + kube::NamespaceOf(claim) + "/" +
                          kube::NameOf(claim) +
                          " was allocated by someone else meanwhile");
    }
  }
}

StatusOr<ReleaseAction> ReleaseClaim(kube::KubeClient* client,
                                     const nlohmann::json& claim,
                                     const std::set<std::string>& live_pods) {
  const kube::Resource claims = kube::Resource::ResourceClaims();
  const std::string ns = kube::NamespaceOf(claim);
  const std::string name = kube::NameOf(claim);
  const std::string owner = ControllingPod(claim);
  ReleaseAction action = ReleaseAction::kNone;
  nlohmann::json current = claim;

  // Drop reservations of pods that are gone or finished.
  const nlohmann::json* reserved =
      kube::FindPath(claim, {"status", "reservedFor"});
  nlohmann::json kept = nlohmann::json::array();
  bool dropped = false;
  if (reserved != nullptr && reserved->is_array()) {
    for (const nlohmann::json& entry : *reserved) {
      if (live_pods.count(kube::StringAt(entry, {"uid"})) != 0) {
        kept.push_back(entry);
      } else {
        dropped = true;
      }
    }
  }
  const bool deallocate = kept.empty() && IsAllocated(claim);
  if (dropped || deallocate) {
    nlohmann::json& status = current["status"];
    if (kept.empty()) {
      status.erase("reservedFor");
    } else {
      status["reservedFor"] = kept;
    }
    if (deallocate) {
      status.erase("allocation");
      status.erase("devices");
    }
    GCUSHARE_ASSIGN_OR_RETURN(current,
                              client->UpdateStatus(claims, ns, current));
    action =
        deallocate ? ReleaseAction::kDeallocated : ReleaseAction::kUnreserved;
  }
  if (!IsAllocated(current) && HasFinalizer(current)) {
    nlohmann::json finalizers = nlohmann::json::array();
    for (const nlohmann::json& f : current["metadata"]["finalizers"]) {
      if (f != kClaimFinalizer) finalizers.push_back(f);
    }
    current["metadata"]["finalizers"] = finalizers;
    GCUSHARE_ASSIGN_OR_RETURN(current, client->Update(claims, ns, current));
  }
  if (!owner.empty() && live_pods.count(owner) == 0) {
    kube::DeleteOptions options;
    options.uid_precondition = kube::StringAt(claim, {"metadata", "uid"});
    Status deleted = client->Delete(claims, ns, name, options);
    if (!deleted.ok() && deleted.http_code() != 404) return deleted;
    action = ReleaseAction::kDeleted;
  }
  return action;
}

}  // namespace gcushare::dra_scheduler
