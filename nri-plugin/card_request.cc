#include "nri-plugin/card_request.h"

#include "contract/annotations.h"
#include "contract/names.h"
#include "contract/pod_request.h"

namespace gcushare::nri {

StatusOr<std::optional<ContainerCards>> ResolveContainerCards(
    const nlohmann::json& annotations, std::string_view container,
    const nlohmann::json* pod) {
  using Result = std::optional<ContainerCards>;
  GCUSHARE_ASSIGN_OR_RETURN(std::optional<contract::CardAssignment> assignment,
                            contract::DecodeAssignment(annotations));
  if (!assignment.has_value()) return Result();
  StatusOr<std::vector<uint32_t>> cards =
      contract::CardsForContainer(*assignment, container);
  if (!cards.ok()) {
    if (cards.status().code() == StatusCode::kNotFound) return Result();
    return cards.status();
  }
  if (cards->empty()) return Result();

  ContainerCards out;
  out.cards = std::move(*cards);
  out.card_memory_units = assignment->card_memory_units;
  out.unit = assignment->memory_unit;

  if (pod != nullptr) {
    GCUSHARE_ASSIGN_OR_RETURN(contract::PodRequest request,
                              contract::ComputePodRequest(*pod));
    for (const contract::ContainerRequest& c : request.containers) {
      if (c.name != container) continue;
      if (c.memory_units > 0 && c.cards == 0) {
        out.shared = true;
        out.limit_units = c.memory_units;
      }
      return Result(std::move(out));
    }
    // Listed in the annotations but asking for nothing in the spec: trust
    // the annotations (the extender decided) and fall through.
  }

  out.shared = out.cards.size() == 1 && assignment->request_units > 0;
  if (!out.shared) return Result(std::move(out));
  if (assignment->container_cards.size() <= 1) {
    out.limit_units = assignment->request_units;
  } else if (pod == nullptr) {
    out.needs_pod = true;
  } else {
    return InvalidArgumentError(
        "container " + std::string(container) + " is listed in " +
        std::string(contract::kPodContainerDevices) + " but requests no " +
        std::string(contract::kResourceMemory) + " in the pod spec");
  }
  return Result(std::move(out));
}

}  // namespace gcushare::nri
