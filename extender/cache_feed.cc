#include "extender/cache_feed.h"

#include <spdlog/spdlog.h>

namespace gcushare::extender {

void NodeFeed::OnAdd(const nlohmann::json& node) {
  NodeLayout layout = ParseNodeLayout(node);
  if (!layout.usable()) {
    spdlog::warn("node {}: left out of placement: {}", layout.name,
                 layout.problem);
  }
  cache_->UpsertNode(node);
}

void NodeFeed::OnUpdate(const nlohmann::json& old_node,
                        const nlohmann::json& new_node) {
  NodeLayout before = ParseNodeLayout(old_node);
  NodeLayout after = ParseNodeLayout(new_node);
  if (after.problem != before.problem && !after.usable()) {
    spdlog::warn("node {}: left out of placement: {}", after.name,
                 after.problem);
  }
  for (size_t i = 0; i < after.cards.size() && i < before.cards.size(); ++i) {
    if (before.cards[i].healthy && !after.cards[i].healthy) {
      spdlog::warn("node {}: card {} turned unhealthy; no new pods go there",
                   after.name, after.cards[i].index);
    }
  }
  cache_->UpsertNode(new_node);
}

void NodeFeed::OnDelete(const nlohmann::json& last_state) {
  cache_->RemoveNode(ParseNodeLayout(last_state).name);
}

void PodFeed::OnAdd(const nlohmann::json& pod) {
  Status status = cache_->UpsertPod(pod);
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
  }
  OnAdd(new_pod);
}

void PodFeed::OnDelete(const nlohmann::json& last_state) {
  cache_->RemovePod(last_state);
}

}  // namespace gcushare::extender
