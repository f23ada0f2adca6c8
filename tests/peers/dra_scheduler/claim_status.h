// The ResourceClaim writes of kube-scheduler's DynamicResources PreBind and
// of kube-controller-manager's resourceclaim controller, through a
// KubeClient:
//
// ReserveClaim (PreBind's bindClaim): when allocating, first adds the
// finalizer resource.kubernetes.io/delete-protection (PUT of the claim),
// then PUTs .../resourceclaims/<name>/status with status.allocation and the
// pod appended to status.reservedFor ({resource: "pods", name, uid}). A 409
// Conflict re-reads the claim and tries again (a few times) as long as the
// claim is still in the state the decision was made on (unallocated when
// allocating).
//
// ReleaseClaim (the controller): drops reservedFor entries of pods that are
// gone or finished; a claim then reserved for nobody gets its allocation
// (and status.devices) cleared and its finalizer removed. Claims the pod's
// template or extended resources produced (controlled by the pod) are
// deleted once the pod is gone or finished.
//
// Ownership: `client` is borrowed. Thread-compatible. Failure: the API
// error of the first write that failed; nothing is retried but conflicts.
#ifndef GCUSHARE_TESTS_PEERS_DRA_SCHEDULER_CLAIM_STATUS_H_
#define GCUSHARE_TESTS_PEERS_DRA_SCHEDULER_CLAIM_STATUS_H_

#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "kube/kube_client.h"
#include "status/status.h"

namespace gcushare::dra_scheduler {

inline constexpr char kClaimFinalizer[] =
    "resource.kubernetes.io/delete-protection";

// Returns the claim as stored afterwards. `allocation` null: the claim is
// allocated already and only gets the reservation.
StatusOr<nlohmann::json> ReserveClaim(kube::KubeClient* client,
                                      const nlohmann::json& claim,
                                      const nlohmann::json* allocation,
                                      const nlohmann::json& pod);

enum class ReleaseAction { kNone, kUnreserved, kDeallocated, kDeleted };

// `live_pods`: UIDs of the pods that exist and have not finished.
// `owner_live`: whether the claim's controlling pod (if any) is live.
StatusOr<ReleaseAction> ReleaseClaim(kube::KubeClient* client,
                                     const nlohmann::json& claim,
                                     const std::set<std::string>& live_pods);

}  // namespace gcushare::dra_scheduler

#endif  // GCUSHARE_TESTS_PEERS_DRA_SCHEDULER_CLAIM_STATUS_H_
