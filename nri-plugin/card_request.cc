#include "nri-plugin/card_request.h"

#include "contract/annotations.h"
#include "contract/names.h"
#include "contract/pod_request.h"

namespace gcushare::nri {
namespace {

// The container's request in the pod spec; nullopt when the spec does not
// list it as asking for anything.
StatusOr<std::optional<contract::ContainerRequest>> SpecRequest(
    const nlohmann::json& pod, std::string_view container) {
  GCUSHARE_ASSIGN_OR_RETURN(contract::PodRequest request,
                            contract::ComputePodRequest(pod));
  for (contract::ContainerRequest& c : request.containers) {
    if (c.name == container) return std::optional(std::move(c));
  }
  return std::optional<contract::ContainerRequest>();
}

// Shared (with its own limit) when the spec asks for memory and no whole
// card; whole otherwise.
void TakeFromSpec(const contract::ContainerRequest& c, ContainerCards* out) {
  out->shared = c.memory_units > 0 && c.cards == 0;
  out->limit_units =
      out->shared ? std::optional<uint64_t>(c.memory_units) : std::nullopt;
  out->needs_pod = false;
}

Status NoLimitInSpecError(std::string_view container) {
  return InvalidArgumentError(
      "container " + std::string(container) + " is listed in " +
      std::string(contract::kPodContainerDevices) + " but requests no " +
      std::string(contract::kResourceMemory) + " in the pod spec");
}

}  // namespace

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
    GCUSHARE_ASSIGN_OR_RETURN(std::optional<contract::ContainerRequest> spec,
                              SpecRequest(*pod, container));
    if (spec.has_value()) {
      TakeFromSpec(*spec, &out);
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
    return NoLimitInSpecError(container);
  }
  return Result(std::move(out));
}

Status CompleteFromPod(const nlohmann::json& pod, std::string_view container,
                       ContainerCards* cards) {
  GCUSHARE_ASSIGN_OR_RETURN(std::optional<contract::ContainerRequest> spec,
                            SpecRequest(pod, container));
  if (!spec.has_value()) return NoLimitInSpecError(container);
  TakeFromSpec(*spec, cards);
  return OkStatus();
}

}  // namespace gcushare::nri
