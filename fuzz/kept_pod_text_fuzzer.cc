// Fuzzes the extender's reader of GCU pods' text (extender/pod_text.h,
// PodFeed::TakeKeptText()) against the usual path: whenever TakeKeptText()
// takes a text that the pod informer's decode also accepts, KeptForm() of
// the decoded pod must give the same kept form, and OnAdd() of it the same
// counts (the card cache's record, its node's free CPU and memory, the
// request history); a text it leaves must count nothing. (A text the
// decode refuses fails the whole list on the usual path; the reader may
// skip such a fault in a field it does not read, as documented.)

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "extender/cache_feed.h"
#include "extender/card_cache.h"
#include "extender/node_resources.h"
#include "json/pruned_parse.h"
#include "placement/request_mix.h"

namespace {

using gcushare::StatusOr;
using gcushare::extender::CardCache;
using gcushare::extender::NodeResources;
using gcushare::extender::PodFeed;
using gcushare::extender::PodFields;

void Check(bool condition) {
  if (!condition) __builtin_trap();
}

struct World {
  CardCache cache;
  NodeResources resources;
  gcushare::placement::RequestHistory history;
  PodFeed feed{&cache, nullptr, &resources, &history};
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const gcushare::json::FieldTree* const kFields =
      new gcushare::json::FieldTree(PodFields());
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  World by_text;
  const std::optional<nlohmann::json> taken = by_text.feed.TakeKeptText(text);
  if (!taken.has_value()) {
    Check(by_text.cache.pod_count() == 0);
    Check(by_text.resources.pod_count() == 0);
    return 0;
  }
  const StatusOr<nlohmann::json> decoded =
      gcushare::json::ParsePruned(text, *kFields, "pod");
  if (!decoded.ok()) return 0;
  World usual;
  const std::optional<nlohmann::json> kept = usual.feed.KeptForm(*decoded);
  Check(kept.has_value() && *kept == *taken);
  usual.feed.OnAdd(*decoded);
  Check(usual.cache.pod_count() == 1 && by_text.cache.pod_count() == 1);
  Check(usual.resources.pod_count() == by_text.resources.pod_count());
  const std::string uid = (*taken)["metadata"]["uid"].get<std::string>();
  const auto a = usual.cache.Pod(uid);
  const auto b = by_text.cache.Pod(uid);
  Check(a.has_value() && b.has_value());
  Check(a->namespace_name == b->namespace_name && a->name == b->name &&
        a->node == b->node && a->create_time == b->create_time &&
        a->cards == b->cards && a->units == b->units && a->whole == b->whole &&
        a->card_count == b->card_count && a->problem.empty() &&
        b->problem.empty());
  // The node is unknown to both (no allocatable): compare what was
  // requested through a node with allocatable set the same way.
  for (World* w : {&usual, &by_text}) {
    Check(w->resources
              .UpsertNode({{"metadata", {{"name", a->node}}},
                           {"status",
                            {{"allocatable",
                              {{"cpu", "1000"}, {"memory", "1000Gi"}}}}}})
              .ok());
  }
  const auto fa = usual.resources.Free(a->node);
  const auto fb = by_text.resources.Free(b->node);
  Check(fa.has_value() && fb.has_value() && fa->cpu_milli == fb->cpu_milli &&
        fa->memory == fb->memory);
  const auto ma = usual.history.Mix();
  const auto mb = by_text.history.Mix();
  Check((ma == nullptr) == (mb == nullptr));
  if (ma != nullptr) {
    Check(ma->empty() == mb->empty() && ma->knows_host() == mb->knows_host());
    for (uint64_t free = 0; free <= 8; ++free) {
      Check(ma->SharedFragment(free) == mb->SharedFragment(free));
    }
  }
  return 0;
}
