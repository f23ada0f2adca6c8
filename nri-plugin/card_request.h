// What one container asked for, read from its pod's assignment annotations
// (docs/contracts.md: written by the extender at bind). Pure functions.
//
// Which container gets which card: its entry in gcu-container-devices,
// else (a pod without container entries, e.g. an older writer or a memory
// pod) every card of gcu-device-id. A container missing from a non-empty
// gcu-container-devices asked for nothing.
//
// Shared or whole: with the pod object, a container that requests
// enflame.com/gcu-memory is shared and one that requests enflame.com/gcu-
// count is whole. From annotations alone, a pod on exactly one card with a
// non-zero gcu-device-memory-request is shared, anything else whole.
//
// A shared container's own limit: the pod's gcu-device-memory-request when
// it is the pod's only GCU container; otherwise its own limit in the pod
// spec, so the pod object is needed (ContainerCards::needs_pod), and
// CompleteFromPod finishes the answer without resolving it again.
//
// The pod object is passed as a PodSpec, which computes the pod's GCU
// request once however many of these questions are asked of it.
#ifndef GCUSHARE_NRI_PLUGIN_CARD_REQUEST_H_
#define GCUSHARE_NRI_PLUGIN_CARD_REQUEST_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "contract/pod_request.h"
#include "status/status.h"

namespace gcushare::nri {

struct ContainerCards {
  std::vector<uint32_t> cards;
  bool shared = false;
  // The container's request in memory units (shared containers only).
  std::optional<uint64_t> limit_units;
  // The card's total memory in units (gcu-device-memory), when annotated.
  std::optional<uint64_t> card_memory_units;
  // The pod's enflame.com/gcu-memory-unit annotation, when present.
  std::optional<std::string> unit;
  // The limit could not be told from annotations: CompleteFromPod.
  bool needs_pod = false;
};

// A core/v1 Pod object and its GCU request (contract::ComputePodRequest),
// computed on first use and kept. Borrows `pod`, which must outlive it.
// Thread-compatible (one container creation uses one).
class PodSpec {
 public:
  explicit PodSpec(const nlohmann::json& pod) : pod_(&pod) {}

  // The pod's request, or ComputePodRequest's error; the same object on
  // every call.
  const StatusOr<contract::PodRequest>& Request() const;
  // `container`'s request; nullopt when the spec lists it as asking for
  // nothing. Fails as Request() does.
  StatusOr<std::optional<contract::ContainerRequest>> ForContainer(
      std::string_view container) const;
  // Whether `container` (an app, init or sidecar container) sets a limit on
  // a GCU resource; false when the spec does not parse.
  bool AsksForGcu(std::string_view container) const;

 private:
  const nlohmann::json* pod_;
  mutable std::optional<StatusOr<contract::PodRequest>> request_;
};

// `annotations` is the pod's annotations as a JSON object; `pod` is the
// pod object or nullptr. nullopt when the container asked for no
// card; InvalidArgument naming the annotation when one is malformed.
StatusOr<std::optional<ContainerCards>> ResolveContainerCards(
    const nlohmann::json& annotations, std::string_view container,
    const PodSpec* pod);

// Completes `cards` (a ResolveContainerCards result that needs_pod) from
// the pod object: shared or whole and the container's own limit, from its
// spec. The result is what ResolveContainerCards gives with the pod.
// Fails as ResolveContainerCards with the pod does (the pod request's error
// when the spec does not parse, InvalidArgument when it asks for no
// enflame.com/gcu-memory for `container`); `cards` is then unchanged.
Status CompleteFromPod(const PodSpec& pod, std::string_view container,
                       ContainerCards* cards);

}  // namespace gcushare::nri

#endif  // GCUSHARE_NRI_PLUGIN_CARD_REQUEST_H_
