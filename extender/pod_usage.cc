#include "extender/pod_usage.h"

#include <algorithm>

#include "contract/names.h"
#include "kube/json_fields.h"

namespace gcushare::extender {

bool PodFinished(const nlohmann::json& pod) {
  std::string phase = kube::StringAt(pod, {"status", "phase"});
  return phase == "Succeeded" || phase == "Failed";
}

PodUsage PodIdentity(const nlohmann::json& pod) {
  PodUsage usage;
  usage.uid = kube::StringAt(pod, {"metadata", "uid"});
  usage.namespace_name = kube::NamespaceOf(pod);
  usage.name = kube::NameOf(pod);
  usage.create_time = kube::StringAt(pod, {"metadata", "creationTimestamp"});
  usage.node = kube::StringAt(pod, {"spec", "nodeName"});
  return usage;
}

namespace {

// The units and cards a pod that wants GCU holds, from its request.
void ApplyRequest(const contract::PodRequest& request, PodUsage& usage) {
  usage.whole = request.cards > 0;
  usage.units = usage.whole ? 0 : request.memory_units;
  usage.card_count = usage.whole ? static_cast<uint32_t>(request.cards) : 1;
}

}  // namespace

PodUsage AssignedPodUsage(PodUsage identity,
                          const contract::PodRequest& request,
                          std::vector<uint32_t> cards) {
  ApplyRequest(request, identity);
  identity.cards = std::move(cards);
  std::sort(identity.cards.begin(), identity.cards.end());
  return identity;
}

StatusOr<std::optional<PodUsage>> PodUsageFromPod(const nlohmann::json& pod) {
  // Not placed or finished: the request is never read.
  if (PodFinished(pod) || kube::StringAt(pod, {"spec", "nodeName"}).empty()) {
    return std::optional<PodUsage>();
  }
  return PodUsageFromPod(pod, contract::ComputePodRequest(pod));
}

StatusOr<std::optional<PodUsage>> PodUsageFromPod(
    const nlohmann::json& pod, const StatusOr<contract::PodRequest>& request) {
  if (PodFinished(pod)) return std::optional<PodUsage>();
  PodUsage usage = PodIdentity(pod);
  if (usage.node.empty()) return std::optional<PodUsage>();
  // What the pod holds comes from its spec; annotations (which anyone with
  // pod patch rights can edit) say only which card.
  if (!request.ok()) return request.status();
  if (!request->Wants()) return std::optional<PodUsage>();
  ApplyRequest(*request, usage);
  const nlohmann::json* annotations =
      kube::FindPath(pod, {"metadata", "annotations"});
  auto assignment = contract::DecodeAssignment(
      annotations != nullptr ? *annotations : nlohmann::json());
  if (assignment.ok() && assignment->has_value()) {
    usage.cards = (*assignment)->cards;
  } else if (!assignment.ok()) {
    // Another annotation is malformed: the card list may still be readable.
    usage.problem = assignment.status().message();
    auto cards = contract::ParseCardList(kube::StringAt(
        pod, {"metadata", "annotations", contract::kPodDeviceId}));
    if (cards.ok()) usage.cards = std::move(*cards);
  } else {
    usage.problem = "bound to " + usage.node + " without the " +
                    std::string(contract::kPodDeviceId) + " annotation";
  }
  if (usage.cards.empty() && usage.problem.empty()) {
    usage.problem = std::string(contract::kPodDeviceId) + " names no card";
  }
  std::sort(usage.cards.begin(), usage.cards.end());
  return std::optional<PodUsage>(std::move(usage));
}

contract::CardAssignment BuildAssignment(const contract::PodRequest& request,
                                         const std::vector<uint32_t>& cards,
                                         uint64_t card_total_units,
                                         int64_t assign_time_ns) {
  contract::CardAssignment a;
  a.cards = cards;
  a.card_memory_units = card_total_units;
  a.assign_time_ns = assign_time_ns;
  a.assigned = false;
  bool whole = request.cards > 0;
  a.request_units =
      whole ? card_total_units * cards.size() : request.memory_units;
  size_t next = 0;  // Next card for app containers and sidecars.
  for (const contract::ContainerRequest& c : request.containers) {
    if (!c.Wants()) continue;
    std::vector<uint32_t>& mine = a.container_cards[c.name];
    if (!whole) {
      mine = cards;
      continue;
    }
    size_t count = std::min<size_t>(c.cards, cards.size());
    if (c.init && !c.sidecar) {
      mine.assign(cards.begin(), cards.begin() + count);
      continue;
    }
    for (size_t i = 0; i < count; ++i) {
      mine.push_back(cards[(next + i) % cards.size()]);
    }
    next += count;
  }
  return a;
}

}  // namespace gcushare::extender
