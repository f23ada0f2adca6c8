// PodUsage: the card memory a pod holds, as the extender counts it, and the
// assignment written at bind. Pure functions; thread-compatible.
#ifndef GCUSHARE_EXTENDER_POD_USAGE_H_
#define GCUSHARE_EXTENDER_POD_USAGE_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "contract/annotations.h"
#include "contract/pod_request.h"
#include "status/status.h"

namespace gcushare::extender {

struct PodUsage {
  std::string uid;
  std::string namespace_name;
  std::string name;
  std::string node;
  std::string create_time;      // metadata.creationTimestamp, as sent.
  std::vector<uint32_t> cards;  // Ascending.
  uint64_t units = 0;           // Shared request (total); 0 for whole cards.
  bool whole = false;           // Holds its cards entirely.
  // Counted from our own bind, not yet seen assigned through the watch.
  bool assumed = false;
  // The CardCache::Assume() that made this record (0: from the watch), so
  // that a failed bind forgets only its own reservation.
  uint64_t ticket = 0;
  // Cards a whole-card pod holds (1 for shared pods).
  uint32_t card_count = 1;
  // Why the assignment annotations could not be read in full ("" when
  // they could). With `cards` empty the pod is counted on EVERY card of its
  // node (its `units` on each, or each card held whole), never freed.
  std::string problem;

  std::string Key() const { return namespace_name + "/" + name; }
};

// True for a pod whose containers will not run again (phase Succeeded or
// Failed) or that is being deleted with no grace left: it holds nothing.
bool PodFinished(const nlohmann::json& pod);

// The usage `pod` holds: nullopt when it holds none (not on a node,
// finished, or its spec asks for no GCU resource). Units come from the
// spec; the annotations give only the card(s). An assignment that cannot
// be read in full is still counted (see PodUsage::problem). A spec whose
// GCU request is itself invalid is InvalidArgument.
StatusOr<std::optional<PodUsage>> PodUsageFromPod(const nlohmann::json& pod);
// The same with the pod's request (or its error) already computed by
// contract::ComputePodRequest(pod), so that a pod event computes it once.
StatusOr<std::optional<PodUsage>> PodUsageFromPod(
    const nlohmann::json& pod, const StatusOr<contract::PodRequest>& request);

// The identity fields of `pod` (uid, namespace, name, creationTimestamp).
PodUsage PodIdentity(const nlohmann::json& pod);

// What PodUsageFromPod() gives for a bound, unfinished pod whose `request`
// wants GCU and whose assignment names `cards` (not empty): `identity`
// (PodIdentity()'s fields and the node) with the request's units and the
// cards, ascending. For a reader of the pod's text
// (extender/pod_text.h).
PodUsage AssignedPodUsage(PodUsage identity,
                          const contract::PodRequest& request,
                          std::vector<uint32_t> cards);

// The annotations written at bind for a pod with `request` placed on
// `cards` whose (first) card holds `card_total_units`:
// gcu-device-id, gcu-device-memory, gcu-device-memory-request (for
// whole-card pods the memory of all its cards), assign time,
// assigned=false, and gcu-container-devices for every container that asked
// (shared: each gets the card; whole: app containers and sidecars take
// consecutive slices of `cards` in spec order, plain init containers the
// first cards, since they run before the others).
contract::CardAssignment BuildAssignment(const contract::PodRequest& request,
                                         const std::vector<uint32_t>& cards,
                                         uint64_t card_total_units,
                                         int64_t assign_time_ns);

}  // namespace gcushare::extender

#endif  // GCUSHARE_EXTENDER_POD_USAGE_H_
