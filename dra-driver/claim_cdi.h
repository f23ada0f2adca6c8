// The per-claim CDI spec of gcushare-dra-driver (CDI "transient spec": one
// file per prepared claim, named after the claim's uid, removed when the
// claim is unprepared).
//
// Spec: kind "k8s.gcu.enflame.com/gcu" (contract::kDraCdiKind), cdiVersion
// 0.5.0 (device names start with the claim uid, which may start with a
// digit). One device per allocation result, named
// "<claimUID>-gcu-<index>" or "<claimUID>-gcu-<index>-<shareID>" for a
// share; it carries /dev/gcu<index> (the card's node as hostPath when the
// host path differs). The FIRST result device of each request (results of
// subrequests "<request>/<sub>" count for their request) also carries that
// request's environment (docs/contracts.md, the container environment):
//   ENFLAME_VISIBLE_DEVICES  = the request's card indexes, comma-joined,
//                              in result order, without repeats;
//   GCUSHARE_MEMORY_LIMIT_MB = the consumed MiB summed over the request's
//                              results (rounded down), only when a result
//                              consumes less than its whole card (a
//                              multi-allocatable card taken whole, by the
//                              policy's default, has a share id but no
//                              limit: the contract sets the limit for
//                              shares only);
//   GCUSHARE_MEMORY_TOTAL_MB = the first card's memory in MiB;
//   GCUSHARE_MEMORY_UNIT     = the node's --memory-unit.
// The kubelet hands a container the CDI ids of every result of each
// request the container references, so the container sees all the
// request's card nodes and that environment once. Shared control nodes
// (Inventory::control_nodes) sit in the spec-level edits.
//
// A container with TWO GCU claims (or two requests): the runtime applies
// the devices in the order the kubelet lists them (the container's
// resources.claims order). CDI's rules (container-device-interface
// ContainerEdits.Apply): device nodes are the union of all the devices'
// nodes; for an env name set by several devices the LATER device's value
// wins. So such a container sees the card nodes of both claims, but
// ENFLAME_VISIBLE_DEVICES, GCUSHARE_MEMORY_LIMIT_MB and
// GCUSHARE_MEMORY_TOTAL_MB of the LAST claim only: its framework uses the
// last claim's cards and limit. To give one container several cards, use
// ONE request with count: N (one environment naming all N cards).
//
// Pure builders and thin file helpers; thread-safe for different claims.
// Failures are Status values naming the claim and the file; nothing
// throws; a failed write leaves any existing file untouched.
#ifndef GCUSHARE_DRA_DRIVER_CLAIM_CDI_H_
#define GCUSHARE_DRA_DRIVER_CLAIM_CDI_H_

#include <string>
#include <string_view>
#include <vector>

#include "cdi/spec.h"
#include "contract/memory_unit.h"
#include "dra-driver/allocated_claim.h"
#include "efml/card.h"
#include "status/status.h"

namespace gcushare::dra {

inline constexpr std::string_view kClaimCdiVersion = "0.5.0";

// "<claimUID>-gcu-<index>[-<shareID>]".
std::string ClaimCdiDeviceName(std::string_view claim_uid,
                               const AllocatedResult& result);

// "k8s.gcu.enflame.com/gcu=<ClaimCdiDeviceName>".
std::string ClaimCdiDeviceId(std::string_view claim_uid,
                             const AllocatedResult& result);

// "k8s.gcu.enflame.com-gcu_<claimUID>.json".
std::string ClaimSpecFileName(std::string_view claim_uid);

// "<cdi_dir>/<ClaimSpecFileName>".
std::string ClaimSpecPath(std::string_view cdi_dir, std::string_view claim_uid);

// OK when `claim_uid` can name a CDI device and a file (CDI device-name
// characters, at most 128 of them); InvalidArgument otherwise.
Status CheckClaimUid(std::string_view claim_uid);

// The spec for `claim`'s results (at least one). InvalidArgument naming the
// claim when a result's card is not in `inventory` or the spec fails the
// CDI validator.
StatusOr<cdi::Spec> BuildClaimSpec(const AllocatedClaim& claim,
                                   const efml::Inventory& inventory,
                                   contract::MemoryUnit unit);

// Validates `spec` and writes it atomically (0644) as
// ClaimSpecPath(cdi_dir, claim_uid), creating cdi_dir (0755) if needed.
// Returns the path.
StatusOr<std::string> WriteClaimSpec(const cdi::Spec& spec,
                                     std::string_view cdi_dir,
                                     std::string_view claim_uid);

// Removes the claim's spec file; a missing file is OK.
Status RemoveClaimSpec(std::string_view cdi_dir, std::string_view claim_uid);

}  // namespace gcushare::dra

#endif  // GCUSHARE_DRA_DRIVER_CLAIM_CDI_H_
