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
#ifndef GCUSHARE_NRI_PLUGIN_CARD_REQUEST_H_
#define GCUSHARE_NRI_PLUGIN_CARD_REQUEST_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

// `annotations` is the pod's annotations as a JSON object; `pod` is the
// core/v1 Pod object or nullptr. nullopt when the container asked for no
// card; InvalidArgument naming the annotation when one is malformed.
StatusOr<std::optional<ContainerCards>> ResolveContainerCards(
    const nlohmann::json& annotations, std::string_view container,
    const nlohmann::json* pod);

// Completes `cards` (a ResolveContainerCards result that needs_pod) from
// the pod object: shared or whole and the container's own limit, from its
// spec. The result is what ResolveContainerCards gives with the pod.
// Fails as ResolveContainerCards with the pod does (the pod request's error
// when the spec does not parse, InvalidArgument when it asks for no
// enflame.com/gcu-memory for `container`); `cards` is then unchanged.
Status CompleteFromPod(const nlohmann::json& pod, std::string_view container,
                       ContainerCards* cards);

}  // namespace gcushare::nri

#endif  // GCUSHARE_NRI_PLUGIN_CARD_REQUEST_H_
