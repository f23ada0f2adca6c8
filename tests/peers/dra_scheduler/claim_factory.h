// The ResourceClaims other components make for a pod, built as pure JSON:
//
// ClaimFromTemplate: what kube-controller-manager's resourceclaim controller
// creates for pod.spec.resourceClaims[] entries with
// resourceClaimTemplateName: generateName "<pod>-<claim>-" (both parts cut
// proportionally when longer than 57 characters, as upstream does), the
// template's labels and annotations plus
// resource.kubernetes.io/pod-claim-name: <claim>, a controlling
// ownerReference to the pod, and the template's spec.spec.
//
// ExtendedResourceClaim (KEP-5004): what kube-scheduler makes for container
// requests of extended resources that a DeviceClass serves
// (spec.extendedResourceName, or the implicit
// deviceclass.resource.kubernetes.io/<class>): one request
// "container-<i>-request-<j>" per container and resource (i counts init
// containers first, j is the resource's index among the container's sorted
// request names), exactly {deviceClassName, allocationMode ExactCount,
// count N}, with no capacity requests: N of a resource means N devices,
// each consuming its policy default (a whole card for the GCU driver),
// never N GiB. The claim has generateName "<pod>-extended-resources-", the
// annotation resource.kubernetes.io/extended-resource-claim: "true" and a
// controlling ownerReference; the mappings go to
// pod.status.extendedResourceClaimStatus.requestMappings. Requests are read
// from resources.requests, or resources.limits when requests lack the name.
//
// Pure functions; thread-safe.
#ifndef GCUSHARE_TESTS_PEERS_DRA_SCHEDULER_CLAIM_FACTORY_H_
#define GCUSHARE_TESTS_PEERS_DRA_SCHEDULER_CLAIM_FACTORY_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "status/status.h"

namespace gcushare::dra_scheduler {

inline constexpr char kPodClaimNameAnnotation[] =
    "resource.kubernetes.io/pod-claim-name";
inline constexpr char kExtendedResourceClaimAnnotation[] =
    "resource.kubernetes.io/extended-resource-claim";
inline constexpr char kImplicitExtendedResourcePrefix[] =
    "deviceclass.resource.kubernetes.io/";

// The generateName the controller uses for `pod_claim` of `pod_name`.
std::string TemplateClaimGenerateName(const std::string& pod_name,
                                      const std::string& pod_claim);

// The claim to create from `claim_template` for pod.spec.resourceClaims
// entry `pod_claim` (its name).
nlohmann::json ClaimFromTemplate(const nlohmann::json& pod,
                                 const std::string& pod_claim,
                                 const nlohmann::json& claim_template);

// Whether `claim` is the one the controller made for `pod_claim` of `pod`
// (controlling owner is the pod and the annotation names the entry).
bool IsTemplateClaimOf(const nlohmann::json& claim, const nlohmann::json& pod,
                       const std::string& pod_claim);

struct ExtendedResourceClaim {
  nlohmann::json claim;             // Without name: create with generateName.
  nlohmann::json request_mappings;  // [{containerName, resourceName,
                                    //   requestName}]
};

// Null when no container asks for a resource a class serves. A quantity
// that is not a whole number is InvalidArgument.
StatusOr<std::optional<ExtendedResourceClaim>> BuildExtendedResourceClaim(
    const nlohmann::json& pod, const std::vector<nlohmann::json>& classes);

// Whether `claim` is an extended-resource claim controlled by `pod`.
bool IsExtendedResourceClaimOf(const nlohmann::json& claim,
                               const nlohmann::json& pod);

}  // namespace gcushare::dra_scheduler

#endif  // GCUSHARE_TESTS_PEERS_DRA_SCHEDULER_CLAIM_FACTORY_H_
