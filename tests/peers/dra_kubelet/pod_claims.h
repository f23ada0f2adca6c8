// The kubelet's reading of a pod's ResourceClaims (pkg/kubelet/cm/dra
// manager.go, claiminfo.go and k8s.io/dynamic-resource-allocation
// resourceclaim), as pure functions on the JSON objects:
//   - which claims a pod uses: spec.resourceClaims[] with resourceClaimName
//     (used as is) or resourceClaimTemplateName (the generated name from
//     pod.status.resourceClaimStatuses[]; an entry without a name means "no
//     claim needed"; no entry yet is an error; the claim must then be owned
//     by the pod), plus, for KEP-5004, the claim named in
//     pod.status.extendedResourceClaimStatus;
//   - whether a claim may be used: reserved for the pod (status.reservedFor
//     has the pod's UID) and allocated (status.allocation), and which
//     drivers its allocation results name;
//   - which CDI devices a container gets: for each entry of
//     containers[].resources.claims in order, the devices of the named
//     request (or of every request when no request is named), a device with
//     empty request_names serving all requests; then the extended-resource
//     request mappings of the container (a resource it requests).
//
// Pure; thread-safe; never throw (JSON of the wrong shape is an error).
#ifndef GCUSHARE_TESTS_PEERS_DRA_KUBELET_POD_CLAIMS_H_
#define GCUSHARE_TESTS_PEERS_DRA_KUBELET_POD_CLAIMS_H_

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "status/status.h"

namespace gcushare::peers::dra_kubelet {

// One device of a NodePrepareResources answer, as the kubelet checkpoints it.
struct PreparedDevice {
  std::vector<std::string> request_names;  // Empty: all requests.
  std::string pool_name;
  std::string device_name;
  std::vector<std::string> cdi_device_ids;
  std::optional<std::string> share_id;  // v1 (1.35+) only.

  friend bool operator==(const PreparedDevice&,
                         const PreparedDevice&) = default;
};

// The kubelet's record of one claim (its ClaimInfo / checkpoint entry).
struct ClaimInfo {
  std::string namespace_name;
  std::string name;
  std::string uid;
  // Driver -> devices the driver prepared. Keys exist from the allocation
  // on; devices arrive with the answer.
  std::map<std::string, std::vector<PreparedDevice>> drivers;
  std::set<std::string> pod_uids;  // Pods using the claim.
  bool prepared = false;
};

struct PodIdentity {
  std::string namespace_name;
  std::string name;
  std::string uid;
};
PodIdentity IdentifyPod(const nlohmann::json& pod);

// spec.initContainers then spec.containers (pointers into `pod`).
std::vector<const nlohmann::json*> PodContainers(const nlohmann::json& pod);

// The container's env entries with a literal value, as "NAME=VALUE".
std::vector<std::string> ContainerEnv(const nlohmann::json& container);

// A claim of the pod, as the kubelet resolves it.
struct PodClaimRef {
  std::string pod_claim_name;  // spec.resourceClaims[].name; "" for KEP-5004.
  std::optional<std::string> claim_name;  // nullopt: no claim needed.
  bool must_check_owner = false;
};

// The pod's claims in spec order, the extended-resource claim last.
StatusOr<std::vector<PodClaimRef>> ResolvePodClaims(const nlohmann::json& pod);

// The claim's UID when the pod may use it: owned by the pod when
// `must_check_owner`, reserved for the pod, and allocated. The messages are
// the kubelet's.
StatusOr<std::string> CheckClaimForPod(const nlohmann::json& pod,
                                       const nlohmann::json& claim,
                                       bool must_check_owner);

// The drivers of the claim's allocation results, sorted, unique.
StatusOr<std::vector<std::string>> AllocatedDrivers(
    const nlohmann::json& claim);

// A (claim, request) the container uses; request "" = the whole claim.
struct ContainerClaimRequest {
  std::string claim_name;  // The ResourceClaim object's name.
  std::string request;
};

// What `container` (an element of spec.containers or spec.initContainers)
// references, in the order described above.
StatusOr<std::vector<ContainerClaimRequest>> ContainerClaimRequests(
    const nlohmann::json& pod, const nlohmann::json& container);

// The CDI device IDs of `info` for `request` (claiminfo.go
// cdiDevicesAsList): drivers in name order, devices in answer order.
std::vector<std::string> CdiDevicesForRequest(const ClaimInfo& info,
                                              const std::string& request);

}  // namespace gcushare::peers::dra_kubelet

#endif  // GCUSHARE_TESTS_PEERS_DRA_KUBELET_POD_CLAIMS_H_
