#include "nri-plugin/container_adjuster.h"

#include <spdlog/spdlog.h>

#include "base/mutex.h"
#include "contract/annotations.h"
#include "contract/names.h"
#include "kube/json_fields.h"
#include "nri-plugin/adjustment.h"
#include "nri-plugin/card_request.h"

namespace gcushare::nri {
namespace {

nlohmann::json AnnotationsJson(
    const google::protobuf::Map<std::string, std::string>& map) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [key, value] : map) out[key] = value;
  return out;
}

std::string PodName(const api::PodSandbox& pod) {
  return pod.namespace_() + "/" + pod.name();
}

}  // namespace

ContainerAdjuster::ContainerAdjuster(DeviceNodes* nodes,
                                     NodeInfoCache* node_info,
                                     AdjusterOptions options, PodLookup* pods,
                                     assignment::AssignedMarker* marker,
                                     kube::EventQueue* events)
    : nodes_(nodes),
      node_info_(node_info),
      options_(options),
      pods_(pods),
      marker_(marker),
      events_(events) {}

void ContainerAdjuster::SetRequestTimeout(std::chrono::milliseconds timeout) {
  if (timeout <= std::chrono::milliseconds::zero()) {
    timeout = kDefaultRequestTimeout;
  }
  pod_wait_cap_ = timeout / 2;
}

StatusOr<nlohmann::json> ContainerAdjuster::ReadPod(
    const api::PodSandbox& pod) {
  if (pods_ != nullptr) {
    GCUSHARE_ASSIGN_OR_RETURN(
        PodLookup::PodPtr cached,
        pods_->Find(pod.uid(), PodName(pod), pod_wait_cap_.load()));
    return *cached;
  }
  return FailedPreconditionError(
      "pod " + PodName(pod) +
      ": the pod spec is needed and there is no API server access "
      "(--kubeconfig or in-cluster config)");
}

StatusOr<api::CreateContainerResponse> ContainerAdjuster::CreateContainer(
    const api::CreateContainerRequest& request) {
  const api::PodSandbox& pod = request.pod();
  const api::Container& container = request.container();
  const std::string who =
      "pod " + PodName(pod) + " container " + container.name();
  api::CreateContainerResponse response;

  // The pod object, read at most once, and its request, computed at most
  // once (PodSpec borrows pod_object: it is never reassigned after).
  std::optional<nlohmann::json> pod_object;
  std::optional<PodSpec> spec;
  // The assignment: the sandbox's annotations; only when it carries none,
  // the pod's (read from the PodCache).
  nlohmann::json annotations = AnnotationsJson(pod.annotations());
  if (pod.annotations().empty() && pods_ != nullptr) {
    GCUSHARE_ASSIGN_OR_RETURN(nlohmann::json object, ReadPod(pod));
    pod_object = std::move(object);
    spec.emplace(*pod_object);
    // Never operator[]/.value() on outside JSON: they throw on a field of
    // another type.
    const nlohmann::json* found =
        kube::FindPath(*pod_object, {"metadata", "annotations"});
    annotations = found != nullptr && found->is_object()
                      ? *found
                      : nlohmann::json::object();
  }

  // The cards, resolved once (with the pod when it was read above).
  StatusOr<std::optional<ContainerCards>> resolved = ResolveContainerCards(
      annotations, container.name(), spec.has_value() ? &*spec : nullptr);
  if (!resolved.ok()) return resolved.status().WithContext(who);
  if (!resolved->has_value()) return response;  // Asked for nothing.
  ContainerCards cards = std::move(**resolved);

  // Whether the pod is needed, decided once: for the container's own limit
  // when the annotations cannot tell it, and with a PodCache to check that
  // its spec asks for a card (annotations alone are anyone's to set). Read
  // at most once.
  if ((cards.needs_pod || pods_ != nullptr) && !pod_object.has_value()) {
    StatusOr<nlohmann::json> object = ReadPod(pod);
    if (!object.ok()) return object.status().WithContext(who);
    pod_object = std::move(*object);
    spec.emplace(*pod_object);
  }
  if (cards.needs_pod) {
    if (Status s = CompleteFromPod(*spec, container.name(), &cards); !s.ok()) {
      return s.WithContext(who);
    }
  }
  if (pods_ != nullptr && !spec->AsksForGcu(container.name())) {
    WarnGcuNotRequested(pod, container.name(), who);
    return response;
  }

  StatusOr<AdjustmentInput> input = MakeAdjustmentInput(cards, who);
  if (!input.ok()) return input.status();
  *response.mutable_adjust() = BuildAdjustment(*input, container);
  WarnRemovedStillAllowed(container, response.adjust(), who);
  spdlog::info("{}: cards {} ({}), unit {}", who,
               contract::JoinCardList(cards.cards),
               cards.shared ? "shared" : "whole", input->unit.ToString());
  MarkAssigned(pod, annotations);
  return response;
}

void ContainerAdjuster::WarnGcuNotRequested(const api::PodSandbox& pod,
                                            const std::string& container,
                                            const std::string& who) {
  spdlog::warn(
      "{}: carries a GCU assignment in its annotations but its spec "
      "asks for no {} or {}: no card handed out",
      who, contract::kResourceMemory, contract::kResourceCount);
  if (events_ != nullptr) {
    events_->Post({"Pod", pod.namespace_(), pod.name(), pod.uid()}, "Warning",
                  "GCUNotRequested",
                  "container " + container +
                      " got no GCU card: the pod's annotations name one "
                      "but its spec asks for no " +
                      std::string(contract::kResourceMemory) + " or " +
                      std::string(contract::kResourceCount));
  }
}

StatusOr<AdjustmentInput> ContainerAdjuster::MakeAdjustmentInput(
    const ContainerCards& cards, const std::string& who) {
  AdjustmentInput input;
  input.cards = cards;
  input.card_memory_units = cards.card_memory_units;
  std::optional<NodeGcuInfo> node;
  if (node_info_ != nullptr &&
      (!cards.unit.has_value() || !cards.card_memory_units.has_value())) {
    StatusOr<NodeGcuInfo> info = node_info_->Get();
    if (info.ok()) {
      node = std::move(*info);
    } else {
      spdlog::warn("{}: node annotations unavailable, using flags: {}", who,
                   info.status().ToString());
    }
  }
  input.unit = options_.default_unit;
  if (cards.unit.has_value()) {
    StatusOr<contract::MemoryUnit> unit =
        contract::MemoryUnit::Parse(*cards.unit);
    if (!unit.ok()) return unit.status().WithContext(who);
    input.unit = *unit;
  } else if (node.has_value() && node->unit.has_value()) {
    input.unit = *node->unit;
  }
  if (!input.card_memory_units.has_value() && node.has_value()) {
    auto it = node->card_memory_units.find(cards.cards.front());
    if (it != node->card_memory_units.end()) {
      input.card_memory_units = it->second;
    }
  }

  for (uint32_t index : cards.cards) {
    StatusOr<DeviceNodeInfo> info = nodes_->Stat(CardDevicePath(index));
    if (!info.ok()) {
      return Status(info.status().code(),
                    who + ": card " + std::to_string(index) +
                        " is assigned but its device node is unusable (" +
                        info.status().message() +
                        "); refusing to run the container without its card");
    }
    input.nodes.push_back(*info);
  }
  return input;
}

void ContainerAdjuster::WarnRemovedStillAllowed(
    const api::Container& container, const api::ContainerAdjustment& adjust,
    const std::string& who) {
  for (uint32_t card : RemovedCardsStillAllowed(container, adjust)) {
    base::MutexLock lock(warned_mu_);
    if (warned_cards_.count(card) > 0) continue;
    // Bounded: past kMaxWarnedCards indices every removal is logged.
    if (warned_cards_.size() < kMaxWarnedCards) warned_cards_.insert(card);
    spdlog::warn(
        "{}: removed {} from the container, but its device-cgroup allow "
        "rule stays (containerd removes no rule): a process with "
        "CAP_MKNOD could still open that card; run the device plugin "
        "with --devices-from-nri (logged once per card)",
        who, CardDevicePath(card));
  }
}

void ContainerAdjuster::MarkAssigned(const api::PodSandbox& pod,
                                     const nlohmann::json& annotations) {
  if (contract::HasAssignedMark(annotations)) {
    return;  // The device plugin (or an earlier container) said so.
  }
  if (marker_ != nullptr) {
    // Whole-card pods never pass through Allocate, and node-status mode
    // skips it for shared pods: the card is handed out here
    // (docs/contracts.md). Marked in the background: the API server may be slow
    // or gone.
    marker_->Mark(pod.namespace_(), pod.name(), pod.uid());
  }
}

}  // namespace gcushare::nri
