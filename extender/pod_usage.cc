#include "extender/pod_usage.h"

#include <algorithm>

#include "contract/names.h"

namespace gcushare::extender {
namespace {

std::string StringField(const nlohmann::json& object, std::string_view key) {
  if (!object.is_object()) return "";
  auto it = object.find(key);
  if (it == object.end() || !it->is_string()) return "";
  return it->get<std::string>();
}

const nlohmann::json& ObjectField(const nlohmann::json& object,
                                  const char* key) {
  static const nlohmann::json* const kEmpty = new nlohmann::json();
  if (!object.is_object()) return *kEmpty;
  auto it = object.find(key);
  return it == object.end() ? *kEmpty : *it;
}

}  // namespace

bool PodFinished(const nlohmann::json& pod) {
  std::string phase = StringField(ObjectField(pod, "status"), "phase");
  return phase == "Succeeded" || phase == "Failed";
}

PodUsage PodIdentity(const nlohmann::json& pod) {
  const nlohmann::json& metadata = ObjectField(pod, "metadata");
  PodUsage usage;
  usage.uid = StringField(metadata, "uid");
  usage.namespace_name = StringField(metadata, "namespace");
  usage.name = StringField(metadata, "name");
  usage.create_time = StringField(metadata, "creationTimestamp");
  usage.node = StringField(ObjectField(pod, "spec"), "nodeName");
  return usage;
}

StatusOr<std::optional<PodUsage>> PodUsageFromPod(const nlohmann::json& pod) {
  if (PodFinished(pod)) return std::optional<PodUsage>();
  PodUsage usage = PodIdentity(pod);
  if (usage.node.empty()) return std::optional<PodUsage>();
  // What the pod holds comes from its spec; annotations (which anyone with
  // pod patch rights can edit) say only which card.
  auto request = contract::ComputePodRequest(pod);
  if (!request.ok()) return request.status();
  if (!request->Wants()) return std::optional<PodUsage>();
  usage.whole = request->cards > 0;
  usage.units = usage.whole ? 0 : request->memory_units;
  usage.card_count = usage.whole ? request->cards : 1;
  const nlohmann::json& annotations =
      ObjectField(ObjectField(pod, "metadata"), "annotations");
  auto assignment = contract::DecodeAssignment(annotations);
  if (assignment.ok() && assignment->has_value()) {
    usage.cards = (*assignment)->cards;
  } else if (!assignment.ok()) {
    // Another annotation is malformed: the card list may still be readable.
    usage.problem = assignment.status().message();
    auto cards = contract::ParseCardList(
        StringField(annotations, contract::kPodDeviceId));
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
