#include "extender/cache_feed.h"

#include <spdlog/spdlog.h>

#include <span>
#include <string_view>
#include <utility>

#include "contract/names.h"
#include "contract/node_layout.h"
#include "contract/pod_request.h"

namespace gcushare::extender {

using placement::HostRequest;
using placement::kNoHostIndex;
using placement::NodeView;
using placement::ReadNodeView;

namespace {

// metadata.<field> of `from` copied into `to`, if it is there.
void CopyMeta(const nlohmann::json& from, nlohmann::json& to,
              const char* field) {
  auto it = from.find(field);
  if (it != from.end()) to[field] = *it;
}

// The entries of `from` (an object) named in `keys`, or null when none.
nlohmann::json Pick(const nlohmann::json& meta, const char* map,
                    std::span<const std::string_view> keys) {
  nlohmann::json picked = nlohmann::json::object();
  auto it = meta.find(map);
  if (it == meta.end() || !it->is_object()) return picked;
  for (std::string_view key : keys) {
    auto entry = it->find(key);
    if (entry != it->end()) picked[std::string(key)] = *entry;
  }
  return picked;
}

// The metadata fields a kept form holds.
constexpr const char* kIdentityFields[] = {"name", "namespace", "uid",
                                           "resourceVersion"};

nlohmann::json Identity(const nlohmann::json& object) {
  nlohmann::json meta = nlohmann::json::object();
  auto it = object.find("metadata");
  if (it != object.end() && it->is_object()) {
    for (const char* field : kIdentityFields) CopyMeta(*it, meta, field);
  }
  return nlohmann::json{{"metadata", std::move(meta)}};
}

}  // namespace

std::optional<nlohmann::json> PodKeptForm(const nlohmann::json& pod) {
  StatusOr<contract::PodRequest> request = contract::ComputePodRequest(pod);
  if (request.ok() && !request->Wants()) return std::nullopt;
  return Identity(pod);
}

std::optional<nlohmann::json> NodeKeptForm(const nlohmann::json& node) {
  nlohmann::json kept = Identity(node);
  auto meta = node.find("metadata");
  if (meta == node.end() || !meta->is_object()) return kept;
  // Everything ReadNodeView() reads, and no more.
  const std::string_view labels[] = {contract::kSharingNodeLabel};
  kept["metadata"]["labels"] = Pick(*meta, "labels", labels);
  kept["metadata"]["annotations"] =
      Pick(*meta, "annotations", contract::kNodeLayoutKeys);
  return kept;
}

json::FieldTree PodFields() {
  json::FieldTree fields = contract::PodRequestFields();
  for (const char* field :
       {"name", "namespace", "uid", "resourceVersion", "creationTimestamp"}) {
    fields.Add({"metadata", field});
  }
  for (std::string_view annotation : contract::kPodAssignmentKeys) {
    fields.Add({"metadata", "annotations", annotation});
  }
  fields.Add({"spec", "nodeName"}).Add({"status", "phase"});
  return fields;
}

json::FieldTree NodeFields() {
  json::FieldTree fields;
  for (const char* field : {"name", "uid", "resourceVersion"}) {
    fields.Add({"metadata", field});
  }
  fields.Add({"metadata", "labels", contract::kSharingNodeLabel})
      .Add({"metadata", "annotations", contract::kNodeMemoryUnit})
      .Add({"metadata", "annotations", contract::kNodeDevices})
      .Add({"status", "allocatable", "cpu"})
      .Add({"status", "allocatable", "memory"});
  return fields;
}

void NodeFeed::OnAdd(const nlohmann::json& node) {
  NodeView view = ReadNodeView(node);
  if (!view.usable()) {
    spdlog::warn("node {}: left out of placement: {}", view.name, view.problem);
  }
  const uint32_t host_index = HostIndex(view.name);
  cache_->UpsertNode(std::move(view), host_index);
  UpsertResources(node);
}

uint32_t NodeFeed::HostIndex(std::string_view name) {
  if (resources_ == nullptr || name.empty()) return kNoHostIndex;
  return resources_->IndexOf(name);
}

void NodeFeed::UpsertResources(const nlohmann::json& node) {
  if (resources_ == nullptr) return;
  Status status = resources_->UpsertNode(node);
  if (!status.ok()) {
    spdlog::warn("node {}: host resources unknown: {}", ReadNodeView(node).name,
                 status.message());
  }
}

void NodeFeed::OnUpdate(const nlohmann::json& old_node,
                        const nlohmann::json& new_node) {
  NodeView before = ReadNodeView(old_node);
  NodeView after = ReadNodeView(new_node);
  if (after.problem != before.problem && !after.usable()) {
    spdlog::warn("node {}: left out of placement: {}", after.name,
                 after.problem);
  }
  const std::vector<contract::NodeCard>& was = before.layout.cards;
  const std::vector<contract::NodeCard>& is = after.layout.cards;
  for (size_t i = 0; i < is.size() && i < was.size(); ++i) {
    if (was[i].healthy && !is[i].healthy) {
      spdlog::warn("node {}: card {} turned unhealthy; no new pods go there",
                   after.name, is[i].index);
    }
  }
  const uint32_t host_index = HostIndex(after.name);
  cache_->UpsertNode(std::move(after), host_index);
  UpsertResources(new_node);
}

void NodeFeed::OnDelete(const nlohmann::json& last_state) {
  const std::string name = ReadNodeView(last_state).name;
  cache_->RemoveNode(name);
  if (resources_ != nullptr) resources_->RemoveNode(name);
}

std::optional<nlohmann::json> PodFeed::KeptForm(const nlohmann::json& pod) {
  memo_request_ = contract::ComputePodRequest(pod);
  memo_pod_ = &pod;
  if (memo_request_.ok() && !memo_request_->Wants()) return std::nullopt;
  return Identity(pod);
}

StatusOr<contract::PodRequest> PodFeed::TakeRequest(const nlohmann::json& pod) {
  if (memo_pod_ != &pod) return contract::ComputePodRequest(pod);
  memo_pod_ = nullptr;
  return std::move(memo_request_);
}

void PodFeed::OnAdd(const nlohmann::json& pod) {
  // The host request, computed once for NodeResources and the history.
  std::optional<StatusOr<HostRequest>> host;
  if (resources_ != nullptr) {
    host.emplace(PodHostRequest(pod));
    CountHost(pod, *host, true);
  }
  const StatusOr<contract::PodRequest> request = TakeRequest(pod);
  bool first_watched = false;
  Status status = cache_->UpsertPod(pod, request, &first_watched);
  if (first_watched && history_ != nullptr && request.ok()) {
    if (!host.has_value()) host.emplace(PodHostRequest(pod));
    history_->Record(request->cards > 0 ? 0 : request->memory_units,
                     static_cast<uint32_t>(request->cards),
                     host->ok() ? &**host : nullptr);
  }
  if (!status.ok()) {
    PodUsage id = PodIdentity(pod);
    spdlog::error("pod {}: GCU assignment unreadable: {}", id.Key(),
                  status.message());
    if (events_ != nullptr) {
      events_->Post({"Pod", id.namespace_name, id.name, id.uid}, "Warning",
                    "GCUAssignmentUnreadable",
                    "GCU memory stays counted: " + status.message());
    }
  }
}

void PodFeed::OnUpdate(const nlohmann::json& old_pod,
                       const nlohmann::json& new_pod) {
  // The informer reports a re-created pod as delete + add; should an update
  // ever carry a new uid, the old incarnation's memory is freed all the same.
  if (PodIdentity(old_pod).uid != PodIdentity(new_pod).uid) {
    cache_->RemovePod(old_pod);
    if (resources_ != nullptr) resources_->RemovePod(PodIdentity(old_pod).uid);
  }
  OnAdd(new_pod);
}

void PodFeed::OnDelete(const nlohmann::json& last_state) {
  cache_->RemovePod(last_state);
  if (resources_ != nullptr) resources_->RemovePod(PodIdentity(last_state).uid);
}

void PodFeed::OnUnkept(const nlohmann::json& pod) {
  memo_pod_ = nullptr;  // Not needed: the pod is counted on its host only.
  if (resources_ != nullptr) CountHost(pod, PodHostRequest(pod), false);
}

bool PodFeed::TakeUnkeptText(std::string_view text) {
  std::optional<UnkeptPod> pod = unkept_reader_.Read(text);
  if (!pod.has_value()) return false;
  if (resources_ == nullptr) return true;  // OnUnkept() would count nothing.
  return resources_
      ->UpsertUnstoredPod(pod->uid, pod->node, pod->phase, pod->request)
      .ok();
}

void PodFeed::OnUnkeptDelete(const nlohmann::json& last_state) {
  if (resources_ != nullptr) resources_->RemovePod(PodIdentity(last_state).uid);
}

void PodFeed::OnRelistBegin() {
  if (resources_ != nullptr) resources_->BeginSweep();
}

void PodFeed::OnRelistSize(size_t expected) {
  if (resources_ != nullptr) resources_->ReservePods(expected);
}

void PodFeed::OnRelistEnd() {
  if (resources_ != nullptr) resources_->EndSweep();
}

std::optional<nlohmann::json> PodFeed::TakeKeptText(std::string_view text) {
  std::optional<PodText> pod = kept_reader_.Read(text);
  if (!pod.has_value() || !pod->uid.has_value()) return std::nullopt;
  StatusOr<contract::PodRequest> request =
      contract::PodRequestOf(std::move(pod->init), std::move(pod->app));
  if (!request.ok() || !request->Wants()) return std::nullopt;
  // Only what counts without a word to say: bound, unfinished, assigned.
  if (pod->node.empty() || pod->phase == "Succeeded" ||
      pod->phase == "Failed") {
    return std::nullopt;
  }
  auto assignment = contract::DecodeAssignment(
      [&pod](std::string_view key) { return pod->Annotation(key); });
  if (!assignment.ok() || !assignment->has_value() ||
      (*assignment)->cards.empty()) {
    return std::nullopt;
  }
  // First, as it may refuse (a uid it cannot read) and then changes nothing.
  if (resources_ != nullptr &&
      !resources_->UpsertPod(*pod->uid, pod->node, pod->phase, pod->host)
           .ok()) {
    return std::nullopt;
  }
  PodUsage identity;
  identity.uid = std::string(*pod->uid);
  identity.namespace_name = std::string(pod->namespace_name.value_or(""));
  identity.name = std::string(pod->name.value_or(""));
  identity.create_time = std::string(pod->creation_timestamp);
  identity.node = std::string(pod->node);
  const bool first_watched = cache_->PutWatched(AssignedPodUsage(
      std::move(identity), *request, std::move((*assignment)->cards)));
  if (first_watched && history_ != nullptr) {
    history_->Record(request->cards > 0 ? 0 : request->memory_units,
                     static_cast<uint32_t>(request->cards), &pod->host);
  }
  // Identity() of the decoded pod.
  const std::optional<std::string_view>* values[] = {
      &pod->name, &pod->namespace_name, &pod->uid, &pod->resource_version};
  static_assert(std::size(values) == std::size(kIdentityFields));
  nlohmann::json meta = nlohmann::json::object();
  for (size_t i = 0; i < std::size(values); ++i) {
    if (values[i]->has_value()) meta[kIdentityFields[i]] = **values[i];
  }
  return nlohmann::json{{"metadata", std::move(meta)}};
}

void PodFeed::CountHost(const nlohmann::json& pod,
                        const StatusOr<HostRequest>& host, bool stored) {
  Status status = stored ? resources_->UpsertPod(pod, host)
                         : resources_->UpsertUnstoredPod(pod, host);
  if (!status.ok()) {
    spdlog::warn("pod {}: CPU/memory request not counted: {}",
                 PodIdentity(pod).Key(), status.message());
  }
}

}  // namespace gcushare::extender
