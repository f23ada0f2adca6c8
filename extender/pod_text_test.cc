// PodFeed::TakeKeptText() (PodTextReader) against the usual path: for every
// pod text it takes, the same kept form and the same counts (the card
// cache's record, the node's cards, NodeResources, the request history) as
// KeptForm() and OnAdd() give of the decoded pod; for every text it
// leaves, nullopt and nothing counted.
#include "extender/pod_text.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "extender/cache_feed.h"
#include "extender/card_cache.h"
#include "extender/node_resources.h"
#include "extender/testing/objects.h"
#include "extender/testing/scale_cluster.h"
#include "json/pruned_parse.h"
#include "placement/request_mix.h"

namespace gcushare::extender {
namespace {

using nlohmann::json;
using placement::CachedNode;
using placement::CardUsage;

constexpr int kNodes = 30;

// What a pod feed counts into.
struct World {
  CardCache cache;
  NodeResources resources;
  placement::RequestHistory history;
  PodFeed feed{&cache, nullptr, &resources, &history};

  World() {
    for (int n = 0; n < kNodes; ++n) {
      const std::string name = testing::ScaleNodeName(n);
      cache.UpsertNode(testing::SharingNode(name, 8, 16));
      EXPECT_TRUE(resources
                      .UpsertNode({{"metadata", {{"name", name}}},
                                   {"status",
                                    {{"allocatable",
                                      {{"cpu", "64"}, {"memory", "256Gi"}}}}}})
                      .ok());
    }
  }
};

// The usual path's view of `text`: decoded with the pod informer's fields.
json Decoded(const std::string& text) {
  StatusOr<json> decoded =
      ::gcushare::json::ParsePruned(text, PodFields(), "pod");
  EXPECT_TRUE(decoded.ok()) << decoded.status();
  return decoded.ok() ? *decoded : json();
}

std::vector<uint64_t> Used(const World& w, const std::string& node) {
  std::vector<uint64_t> used;
  w.cache.Visit({node}, [&](const std::string&, const CachedNode* cached) {
    if (cached == nullptr) return;
    for (const CardUsage& card : cached->cards) {
      used.push_back(card.whole ? 1000000 + card.used_units : card.used_units);
    }
  });
  return used;
}

// The two worlds count alike.
void ExpectSameCounts(const World& a, const World& b, const std::string& uid) {
  EXPECT_EQ(a.cache.pod_count(), b.cache.pod_count());
  EXPECT_EQ(a.resources.pod_count(), b.resources.pod_count());
  auto pa = a.cache.Pod(uid);
  auto pb = b.cache.Pod(uid);
  ASSERT_EQ(pa.has_value(), pb.has_value());
  if (pa.has_value()) {
    EXPECT_EQ(pa->namespace_name, pb->namespace_name);
    EXPECT_EQ(pa->name, pb->name);
    EXPECT_EQ(pa->node, pb->node);
    EXPECT_EQ(pa->create_time, pb->create_time);
    EXPECT_EQ(pa->cards, pb->cards);
    EXPECT_EQ(pa->units, pb->units);
    EXPECT_EQ(pa->whole, pb->whole);
    EXPECT_EQ(pa->card_count, pb->card_count);
    EXPECT_EQ(pa->assumed, pb->assumed);
    EXPECT_EQ(pa->problem, pb->problem);
  }
  for (int n = 0; n < kNodes; ++n) {
    const std::string node = testing::ScaleNodeName(n);
    EXPECT_EQ(Used(a, node), Used(b, node)) << node;
    auto fa = a.resources.Free(node);
    auto fb = b.resources.Free(node);
    ASSERT_EQ(fa.has_value(), fb.has_value());
    if (fa.has_value()) {
      EXPECT_EQ(fa->cpu_milli, fb->cpu_milli) << node;
      EXPECT_EQ(fa->memory, fb->memory) << node;
    }
  }
  auto ma = a.history.Mix();
  auto mb = b.history.Mix();
  ASSERT_EQ(ma == nullptr, mb == nullptr);
  if (ma != nullptr) {
    EXPECT_EQ(ma->empty(), mb->empty());
    EXPECT_EQ(ma->knows_host(), mb->knows_host());
    for (uint64_t free = 0; free <= 20; ++free) {
      EXPECT_EQ(ma->SharedFragment(free), mb->SharedFragment(free)) << free;
    }
    const placement::HostRequest probe{1500, int64_t{3} << 30};
    EXPECT_EQ(ma->HostShortShare(probe), mb->HostShortShare(probe));
  }
}

// Offers `text` to a fresh world's TakeKeptText() and the decoded pod to
// another's KeptForm() and OnAdd(); checks they agree. Returns whether the
// text path took it.
bool TakesAsTheUsualPath(const std::string& text) {
  World usual;
  World by_text;
  const json decoded = Decoded(text);
  std::optional<json> kept = usual.feed.KeptForm(decoded);
  if (kept.has_value()) usual.feed.OnAdd(decoded);
  std::optional<json> taken = by_text.feed.TakeKeptText(text);
  if (!taken.has_value()) {
    // Left to the usual path: nothing counted.
    EXPECT_EQ(by_text.cache.pod_count(), 0u) << text;
    EXPECT_EQ(by_text.resources.pod_count(), 0u) << text;
    EXPECT_TRUE(by_text.history.Mix() == nullptr ||
                by_text.history.Mix()->empty())
        << text;
    return false;
  }
  EXPECT_TRUE(kept.has_value()) << text;
  if (kept.has_value()) {
    EXPECT_EQ(*taken, *kept) << text;
  }
  ExpectSameCounts(usual, by_text,
                   decoded["metadata"].value("uid", std::string()));
  return true;
}

// A bound GCU pod as a text, with `spec` merged over a one-container spec
// and `annotations` over the assignment of card 1 (16 units a card).
json AssignedPod(const json& containers = nullptr) {
  json pod = testing::Assigned(
      testing::MemoryPod("p", 4, "8a3c3f0e-1b2d-4e5f-9a8b-7c6d5e4f3a2b"),
      testing::ScaleNodeName(3), {1}, 16);
  pod["metadata"]["resourceVersion"] = "42";
  pod["metadata"]["creationTimestamp"] = "2026-11-29T07:00:00Z";
  pod["status"]["phase"] = "Running";
  if (!containers.is_null()) pod["spec"]["containers"] = containers;
  return pod;
}

TEST(KeptPodTextTest, EveryGcuScalePodIsTakenAlike) {
  testing::ScaleClusterSpec spec;
  spec.nodes = kNodes;
  spec.gcu_pods = 60;
  spec.plain_pods = 30;
  std::mt19937 rng(spec.seed);
  int gcu = 0;
  int taken = 0;
  for (int i = 0; i < spec.gcu_pods + spec.plain_pods; ++i) {
    const json pod = testing::ScalePod(spec, i, rng);
    const bool wants = PodKeptForm(pod).has_value();
    gcu += wants ? 1 : 0;
    const bool took = TakesAsTheUsualPath(pod.dump());
    taken += took ? 1 : 0;
    EXPECT_EQ(took, wants) << i;
  }
  EXPECT_EQ(gcu, 60);
  EXPECT_EQ(taken, 60);
}

TEST(KeptPodTextTest, RequestShapesAreTakenAlike) {
  const json whole = {{{"name", "main"},
                       {"resources",
                        {{"limits", {{"enflame.com/gcu-count", "2"}}},
                         {"requests", {{"cpu", "2"}, {"memory", "4Gi"}}}}}}};
  json whole_pod = AssignedPod(whole);
  whole_pod["metadata"]["annotations"]["enflame.com/gcu-device-id"] = "2,1";
  EXPECT_TRUE(TakesAsTheUsualPath(whole_pod.dump()));

  // Requests only, a sidecar and an init container asking too.
  json pod = AssignedPod(
      {{{"name", "main"},
        {"resources", {{"requests", {{"enflame.com/gcu-memory", "3"}}}}}}});
  pod["spec"]["initContainers"] = {
      {{"name", "side"},
       {"restartPolicy", "Always"},
       {"resources",
        {{"limits", {{"enflame.com/gcu-memory", "2"}, {"cpu", "250m"}}}}}},
      {{"name", "setup"},
       {"resources",
        {{"limits", {{"enflame.com/gcu-memory", "9"}}},
         {"requests", {{"enflame.com/gcu-memory", "1"}, {"memory", "1Mi"}}}}}}};
  EXPECT_TRUE(TakesAsTheUsualPath(pod.dump()));

  // Keys the decode drops, written twice: skipped, as the decode skips.
  std::string text = AssignedPod().dump();
  text.insert(1, R"("extra":1,"extra":[2],)");
  EXPECT_TRUE(TakesAsTheUsualPath(text));
}

TEST(KeptPodTextTest, LeavesWhatItCannotTakeAlike) {
  std::vector<std::string> texts;
  auto with = [&](const std::function<void(json&)>& change) {
    json pod = AssignedPod();
    change(pod);
    texts.push_back(pod.dump());
  };
  with([](json& p) { p["spec"].erase("nodeName"); });  // Pending.
  with([](json& p) { p["status"]["phase"] = "Succeeded"; });
  with([](json& p) { p["status"]["phase"] = "Failed"; });
  with([](json& p) {
    p["metadata"]["annotations"].erase("enflame.com/gcu-device-id");
  });
  with([](json& p) {
    p["metadata"]["annotations"]["enflame.com/gcu-device-id"] = "x";
  });
  with([](json& p) {
    p["metadata"]["annotations"]["enflame.com/gcu-device-assigned"] = "yes";
  });
  with([](json& p) {
    p["metadata"]["annotations"]["enflame.com/gcu-device-id"] = 1;
  });
  with([](json& p) { p["metadata"].erase("uid"); });
  with([](json& p) { p["metadata"]["uid"] = "not-a-uid"; });
  with([](json& p) { p["metadata"]["name"] = 7; });
  with([](json& p) {
    p["spec"]["containers"][0]["resources"]["limits"]
     ["enflame.com/gcu-memory"] = 4;
  });
  with([](json& p) {
    p["spec"]["containers"][0]["resources"]["limits"]
     ["enflame.com/gcu-memory"] = "4.5";
  });
  with([](json& p) {
    p["spec"]["containers"][0]["resources"]["limits"]["enflame.com/other"] =
        "1";
  });
  with([](json& p) {
    p["spec"]["containers"][0]["resources"]["requests"]["cpu"] = "lots";
  });
  with([](json& p) { p["spec"]["containers"][0]["name"] = 1; });
  with([](json& p) { p["spec"]["containers"] = json::object(); });
  with([](json& p) { p["spec"]["containers"][0] = "main"; });
  with([](json& p) {  // Asks for no GCU: not a kept pod.
    p["spec"]["containers"][0]["resources"] = json::object();
  });
  const std::string good = AssignedPod().dump();
  std::string twice = good;  // The uid written twice.
  twice.insert(twice.find("\"uid\""), R"("uid":"x",)");
  texts.push_back(twice);
  texts.push_back(good + " {}");                     // Trailing text.
  texts.push_back(good.substr(0, good.size() / 2));  // Cut short.
  for (const std::string& text : texts) {
    World by_text;
    EXPECT_FALSE(by_text.feed.TakeKeptText(text).has_value()) << text;
    EXPECT_EQ(by_text.cache.pod_count(), 0u) << text;
    EXPECT_EQ(by_text.resources.pod_count(), 0u) << text;
  }
  // And the good one is taken.
  EXPECT_TRUE(TakesAsTheUsualPath(good));
}

}  // namespace
}  // namespace gcushare::extender
