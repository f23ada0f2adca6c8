#include "extender/binding_catch_up.h"

#include <spdlog/spdlog.h>

#include "extender/pod_usage.h"

namespace gcushare::extender {

StatusOr<size_t> CatchUpBindings(kube::KubeClient* client, CardCache* cache) {
  kube::ListOptions options;
  options.resource_version = "";  // Consistent: every committed Binding.
  options.limit = 500;
  size_t added = 0;
  auto listed = client->ListEach(
      kube::Resource::Pods(), "", options, [&](const nlohmann::json& pod) {
        auto usage = PodUsageFromPod(pod);
        if (!usage.ok() || !usage->has_value()) return;
        PodUsage& held = **usage;
        if (held.node.empty() || held.cards.empty()) return;
        if (cache->Pod(held.uid).has_value()) return;
        held.assumed = true;
        cache->Assume(held);
        ++added;
        spdlog::info(
            "catch-up: pod {} holds card(s) on {} the cache did not "
            "count yet",
            held.Key(), held.node);
      });
  if (!listed.ok()) return listed.status();
  return added;
}

}  // namespace gcushare::extender
