#include "nri-plugin/card_request.h"

#include "contract/annotations.h"
#include "contract/names.h"
#include "contract/pod_request.h"

namespace gcushare::nri {

const StatusOr<contract::PodRequest>& PodSpec::Request() const {
  if (!request_.has_value())
    request_.emplace(contract::ComputePodRequest(*pod_));
  return *request_;
}

StatusOr<std::optional<contract::ContainerRequest>> PodSpec::ForContainer(
    std::string_view container) const {
  const StatusOr<contract::PodRequest>& request = Request();
  if (!request.ok()) return request.status();
  for (const contract::ContainerRequest& c : request->containers) {
    if (c.name == container) return std::optional(c);
  }
  return std::optional<contract::ContainerRequest>();
}

bool PodSpec::AsksForGcu(std::string_view container) const {
  const StatusOr<contract::PodRequest>& request = Request();
  if (!request.ok()) return false;
  for (const contract::ContainerRequest& c : request->containers) {
    if (c.name == container && c.Wants()) return true;
  }
  return false;
}

namespace {

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
    const PodSpec* pod) {
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
                              pod->ForContainer(container));
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

Status CompleteFromPod(const PodSpec& pod, std::string_view container,
                       ContainerCards* cards) {
  GCUSHARE_ASSIGN_OR_RETURN(std::optional<contract::ContainerRequest> spec,
                            pod.ForContainer(container));
  if (!spec.has_value()) return NoLimitInSpecError(container);
  TakeFromSpec(*spec, cards);
  return OkStatus();
}

}  // namespace gcushare::nri
