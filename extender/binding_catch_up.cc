#include "extender/binding_catch_up.h"

#include <spdlog/spdlog.h>

#include <string>

#include "contract/names.h"
#include "extender/cache_feed.h"
#include "extender/pod_usage.h"
#include "json/field_tree.h"

namespace gcushare::extender {
namespace {

// A pod's text that names nothing of ours asks for no GCU resource
// (contract::kOurPrefix; the API server writes keys unescaped), so
// PodUsageFromPod() finds no card in it.
bool NamesNothingOfOurs(std::string_view text) {
  return text.find(contract::kOurPrefix) == std::string_view::npos;
}

}  // namespace

StatusOr<size_t> CatchUpBindings(kube::KubeClient* client, CardCache* cache,
                                 std::string_view small_namespace) {
  // Only what the pod informer decodes (all PodUsageFromPod() reads).
  const json::FieldTree fields = PodFields();
  size_t added = 0;
  auto each = [&](const nlohmann::json& pod) {
    auto usage = PodUsageFromPod(pod);
    if (!usage.ok() || !usage->has_value()) return;
    PodUsage& held = **usage;
    if (held.node.empty() || held.cards.empty()) return;
    if (cache->Pod(held.uid).has_value()) return;
    held.assumed = true;
    cache->Assume(held);
    ++added;
    spdlog::info(
        "catch-up: pod {} holds card(s) on {} the cache did not count yet",
        held.Key(), held.node);
  };

  // 1. etcd's current revision, from a quorum read of a few pods.
  json::FieldTree names;
  names.Add({"metadata", "name"});
  kube::ListOptions quorum;
  quorum.resource_version = "";
  quorum.limit = kCatchUpPageSize;
  quorum.fields = &names;
  GCUSHARE_ASSIGN_OR_RETURN(
      const std::string revision,
      client->ListEach(kube::Resource::Pods(), small_namespace, quorum,
                       [](const nlohmann::json&) {}));

  // 2. Every pod, at least as fresh as that revision.
  kube::ListOptions fresh;
  fresh.resource_version = revision;
  fresh.fields = &fields;
  fresh.take_item_text = NamesNothingOfOurs;
  Status listed =
      revision.empty()
          ? Status(StatusCode::kInternal,
                   "the consistent list named no resourceVersion")
          : client->ListEach(kube::Resource::Pods(), "", fresh, each).status();
  if (listed.ok()) return added;

  // 3. Every pod from etcd, page by page.
  spdlog::warn(
      "catch-up: the list of pods at resourceVersion {} failed ({}); "
      "reading them from etcd instead",
      revision, listed.ToString());
  kube::ListOptions consistent;
  consistent.resource_version = "";
  consistent.limit = kCatchUpPageSize;
  consistent.fields = &fields;
  consistent.take_item_text = NamesNothingOfOurs;
  GCUSHARE_RETURN_IF_ERROR(
      client->ListEach(kube::Resource::Pods(), "", consistent, each).status());
  return added;
}

}  // namespace gcushare::extender
