// AllocatedClaim: what gcushare-dra-driver needs from a ResourceClaim
// (resource.k8s.io/v1) to prepare it: its identity, the allocation results
// of OUR driver (gcu.enflame.com) and the consumers it is reserved for.
//
// Rules (KEP-4381 / KEP-5075, upstream kubeletplugin getResourceClaims):
// - metadata.uid must be the uid the kubelet asked for (a different uid is
//   a deleted and re-created claim of the same name);
// - status.allocation must be set (the kubelet prepares allocated claims);
// - results of other drivers are ignored; a result of ours must be in this
//   node's pool (pool name = node name), name a device "gcu-<index>", and
//   may carry shareID and consumedCapacity (KEP-5075). The consumed memory
//   is consumedCapacity["memory"] or ["gcu.enflame.com/memory"] (an
//   unqualified capacity name belongs to the driver's domain), both present
//   is an error;
// - at most 32 results (the API's limit), share IDs and request names are
//   non-empty strings of CDI device-name characters and at most 253
//   characters.
//
// Pure; thread-safe; never throws (nlohmann exceptions are caught). Every
// error is InvalidArgument / FailedPrecondition naming the claim
// ("claim demo/gcu-x (uid ...): ...").
#ifndef GCUSHARE_DRA_DRIVER_ALLOCATED_CLAIM_H_
#define GCUSHARE_DRA_DRIVER_ALLOCATED_CLAIM_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "status/status.h"

namespace gcushare::dra {

// One status.allocation.devices.results[] entry of our driver.
struct AllocatedResult {
  std::string request;  // "gcu", or "<request>/<subrequest>".
  std::string pool;     // The node name.
  std::string device;   // "gcu-<index>".
  uint32_t card_index = 0;
  std::optional<std::string> share_id;          // KEP-5075 shareID.
  std::optional<uint64_t> consumed_millibytes;  // consumedCapacity.memory.

  friend bool operator==(const AllocatedResult&,
                         const AllocatedResult&) = default;
};

// status.reservedFor[] (the pods that use the claim).
struct ClaimConsumer {
  std::string api_group;
  std::string resource;  // "pods".
  std::string name;
  std::string uid;

  friend bool operator==(const ClaimConsumer&, const ClaimConsumer&) = default;
};

struct AllocatedClaim {
  std::string ns;
  std::string name;
  std::string uid;
  std::vector<AllocatedResult> results;  // Ours only, in allocation order.
  std::vector<ClaimConsumer> reserved_for;

  friend bool operator==(const AllocatedClaim&,
                         const AllocatedClaim&) = default;
};

// The request a container references for a result's request: "gcu" for
// "gcu" and for a prioritized-list subrequest "gcu/small" (the kubelet
// plugin helper upstream strips subrequest names the same way, draplugin.go
// stripSubrequestNames, before answering NodePrepareResources).
std::string BaseRequestName(std::string_view request);

// "claim <ns>/<name> (uid <uid>)": the prefix of every error about a claim.
std::string DescribeClaim(std::string_view ns, std::string_view name,
                          std::string_view uid);

// Parses `claim` (a ResourceClaim as the API server returns it). `ns`,
// `name` and `uid` are what the kubelet asked for; `node_name` is this
// node's pool.
StatusOr<AllocatedClaim> ParseAllocatedClaim(const nlohmann::json& claim,
                                             std::string_view ns,
                                             std::string_view name,
                                             std::string_view uid,
                                             std::string_view node_name);

// The same from JSON text (depth-bounded parse; malformed JSON is
// InvalidArgument naming the claim).
StatusOr<AllocatedClaim> ParseAllocatedClaimJson(std::string_view text,
                                                 std::string_view ns,
                                                 std::string_view name,
                                                 std::string_view uid,
                                                 std::string_view node_name);

}  // namespace gcushare::dra

#endif  // GCUSHARE_DRA_DRIVER_ALLOCATED_CLAIM_H_
