// The stand-in scheduler for DRA pods: kube-scheduler's DynamicResources
// plugin (with consumable capacity, KEP-5075, and extended resources backed
// by DRA, KEP-5004) plus the resourceclaim controller of
// kube-controller-manager, driven on demand so that tests are deterministic.
//
// SchedulePending() lists nodes, pods, ResourceSlices, DeviceClasses and
// ResourceClaims, releases the claims of pods that are gone or finished
// (ReleaseClaims), and then tries each pending pod once (schedulerName
// default-scheduler or as configured, no spec.nodeName, not finished), in
// queue order (higher spec.priority first, then creation; the
// resourceVersion breaks same-second ties), each seeing what the pods
// before it allocated:
//   1. its claims: spec.resourceClaims[].resourceClaimName as is;
//      resourceClaimTemplateName: the claim the controller made (recorded in
//      pod.status.resourceClaimStatuses), or a new one from the template
//      (claim_factory.h), recorded there by a status patch; container
//      requests of a class's extended resource: an in-memory special claim
//      (claim_factory.h);
//   2. the nodes in name order: a node fails with "resourceclaim not
//      available on the node" when an allocated claim's nodeSelector
//      excludes it, "cannot allocate all claims" when the allocator
//      (allocator.h) finds no devices there; the first node that fits wins
//      (no scoring, no other plugins);
//   3. binding: the extended-resource claim is created (generateName) and
//      recorded in pod.status.extendedResourceClaimStatus; each claim gets
//      the finalizer, status.allocation and reservedFor (claim_status.h);
//      then the pod is bound (KubeClient::CreateBinding).
// Like kube-scheduler it records a Normal "Scheduled" event ("Successfully
// assigned <ns>/<pod> to <node>") or a Warning "FailedScheduling" event
// with the failure message on every attempt.
// A pod that fits nowhere keeps PodScheduled=False, reason Unschedulable,
// with the message of fit_message.h; an allocator error (a CEL error, a
// missing class) is reason SchedulerError with the message
// `running "DynamicResources" filter plugin: <error>`.
//
// Ownership: `client`, `share_ids` and `clock` are borrowed and must
// outlive the scheduler. Thread-compatible: one caller at a time.
// Failure: a failed list is returned; per-pod failures are outcomes.
#ifndef GCUSHARE_TESTS_PEERS_DRA_SCHEDULER_DRA_SCHEDULER_H_
#define GCUSHARE_TESTS_PEERS_DRA_SCHEDULER_DRA_SCHEDULER_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "base/clock.h"
#include "kube/kube_client.h"
#include "status/status.h"
#include "tests/peers/dra_scheduler/share_id.h"

namespace gcushare::dra_scheduler {

struct DraSchedulerOptions {
  std::string scheduler_name = "default-scheduler";
  // Events' reportingInstance is "<scheduler name>-<host name>".
  std::string host_name = "localhost";
};

struct PodOutcome {
  std::string pod;  // "<namespace>/<name>"
  bool bound = false;
  std::string node;
  std::string reason;  // "Unschedulable" or "SchedulerError" when not bound.
  std::string message;
};

struct ReleaseSummary {
  int unreserved = 0;   // Claims that lost a reservation only.
  int deallocated = 0;  // Claims whose allocation was cleared.
  int deleted = 0;      // Generated claims deleted.
};

class DraScheduler {
 public:
  DraScheduler(kube::KubeClient* client, ShareIdSource* share_ids,
               base::Clock* clock, DraSchedulerOptions options = {});

  StatusOr<std::vector<PodOutcome>> SchedulePending();

  // The controller pass alone.
  StatusOr<ReleaseSummary> ReleaseClaims();

 private:
  struct Snapshot {
    std::vector<nlohmann::json> nodes;
    std::vector<nlohmann::json> pods;
    std::vector<nlohmann::json> slices;
    std::vector<nlohmann::json> classes;
    std::vector<nlohmann::json> claims;
  };

  // Why a scheduling attempt failed: the PodScheduled condition's reason
  // ("Unschedulable" or "SchedulerError") and message.
  struct Failure {
    std::string reason;
    std::string message;
  };
  struct PodClaims;  // A pod's claims, resolved for one attempt.
  struct Placement;  // The chosen node and what binding there takes.

  StatusOr<Snapshot> ListAll();
  StatusOr<ReleaseSummary> Release(Snapshot& snapshot);
  PodOutcome ScheduleOne(nlohmann::json pod, Snapshot& snapshot);
  // ScheduleOne's steps; each returns the failure that ends the attempt.
  // Step 1: the claims of `pod` (updated when its status is patched).
  std::optional<Failure> ResolveClaims(nlohmann::json& pod, Snapshot& snapshot,
                                       PodClaims* claims);
  // Step 1 for one spec.resourceClaims entry: the name of its claim.
  std::optional<Failure> ClaimOfEntry(const nlohmann::json& entry,
                                      nlohmann::json& pod, Snapshot& snapshot,
                                      std::string* name);
  // The resourceclaim controller: a new claim from the template.
  std::optional<Failure> CreateTemplateClaim(const nlohmann::json& pod,
                                             const std::string& entry_name,
                                             const std::string& template_name,
                                             Snapshot& snapshot,
                                             std::string* name);
  // Records the entry's claim in pod.status.resourceClaimStatuses.
  std::optional<Failure> RecordClaimStatus(const std::string& entry_name,
                                           const std::string& claim_name,
                                           nlohmann::json& pod,
                                           Snapshot& snapshot);
  // Step 2: the first node where every claim is available or allocatable.
  std::optional<Failure> ChooseNode(const nlohmann::json& pod,
                                    const PodClaims& claims, Snapshot& snapshot,
                                    Placement* placement);
  // Step 3 up to the binding: creates the extended-resource claim and
  // writes the claims' allocations and reservations.
  std::optional<Failure> PreBind(nlohmann::json& pod, const PodClaims& claims,
                                 Snapshot& snapshot, Placement* placement);
  void RecordFailure(const nlohmann::json& pod, PodOutcome& outcome);
  void RecordEvent(const nlohmann::json& pod, const std::string& type,
                   const std::string& reason, const std::string& action,
                   const std::string& message);

  kube::KubeClient* const client_;
  ShareIdSource* const share_ids_;
  base::Clock* const clock_;
  const DraSchedulerOptions options_;
  uint64_t event_counter_ = 0;
};

}  // namespace gcushare::dra_scheduler

#endif  // GCUSHARE_TESTS_PEERS_DRA_SCHEDULER_DRA_SCHEDULER_H_
