// UnkeptPodReader against the usual path: for every pod it reads, the same
// uid, node, phase and host request as PodHostRequest() and the informer's
// accessors give of the decoded pod, which PodKeptForm() drops; for every
// text it should not read, nullopt. And PodFeed::TakeUnkeptText() counts
// in NodeResources exactly what OnUnkept() counts.
#include "extender/unkept_pod_text.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "extender/cache_feed.h"
#include "extender/card_cache.h"
#include "extender/node_resources.h"
#include "extender/testing/scale_cluster.h"
#include "json/pruned_parse.h"
#include "kube/json_fields.h"

namespace gcushare::extender {
namespace {

using nlohmann::json;

// A plain pod: uid, node, phase and the given spec.
json PodWith(json spec, const std::string& node = "node-1",
             const std::string& phase = "Running") {
  json pod = {{"metadata",
               {{"name", "p"},
                {"namespace", "ns"},
                {"uid", "8a3c3f0e-1b2d-4e5f-9a8b-7c6d5e4f3a2b"},
                {"resourceVersion", "7"}}},
              {"spec", std::move(spec)},
              {"status", {{"phase", phase}}}};
  if (!node.empty()) pod["spec"]["nodeName"] = node;
  return pod;
}

json Container(const std::string& name, json resources) {
  return {{"name", name}, {"image", "i"}, {"resources", std::move(resources)}};
}

// The usual path's view of `text`: decoded with the pod informer's fields.
json Decoded(const std::string& text) {
  StatusOr<json> decoded =
      ::gcushare::json::ParsePruned(text, PodFields(), "pod");
  EXPECT_TRUE(decoded.ok()) << decoded.status();
  return decoded.ok() ? *decoded : json();
}

// Reads `text` and, when the reader takes it, checks it against the usual
// path. Returns whether it took it.
bool ReadsAsTheUsualPath(UnkeptPodReader& reader, const std::string& text) {
  std::optional<UnkeptPod> pod = reader.Read(text);
  if (!pod.has_value()) return false;
  const json decoded = Decoded(text);
  EXPECT_FALSE(PodKeptForm(decoded).has_value()) << text;
  StatusOr<placement::HostRequest> request = PodHostRequest(decoded);
  EXPECT_TRUE(request.ok()) << text;
  if (request.ok()) {
    EXPECT_EQ(pod->request.cpu_milli, request->cpu_milli) << text;
    EXPECT_EQ(pod->request.memory, request->memory) << text;
  }
  EXPECT_EQ(pod->uid, kube::StringAt(decoded, {"metadata", "uid"}));
  EXPECT_EQ(pod->node, kube::StringAt(decoded, {"spec", "nodeName"}));
  EXPECT_EQ(pod->phase, kube::StringAt(decoded, {"status", "phase"}));
  return true;
}

TEST(UnkeptPodReaderTest, ReadsPlainPodsAsTheUsualPath) {
  const json both = {{"requests", {{"cpu", "250m"}, {"memory", "64Mi"}}},
                     {"limits", {{"cpu", "1"}, {"memory", "128Mi"}}}};
  const struct {
    const char* what;
    json pod;
    int64_t cpu_milli;
    int64_t memory;
  } kCases[] = {
      {"requests win", PodWith({{"containers", {Container("a", both)}}}), 250,
       64 << 20},
      {"limits stand in per resource",
       PodWith({{"containers",
                 {Container("a", {{"requests", {{"cpu", "100u"}}},
                                  {"limits", {{"memory", "1500m"}}}})}}}),
       1, 2},
      {"apps add up",
       PodWith({{"containers",
                 {Container("a", {{"requests", {{"cpu", "1.5"}}}}),
                  Container("b", {{"limits", {{"memory", "1.5Gi"}}}})}}}),
       1500, 1610612736},
      {"init peak against apps and sidecars",
       PodWith(
           {{"containers", {Container("a", {{"requests", {{"cpu", "1"}}}})}},
            {"initContainers",
             {json{{"name", "side"},
                   {"restartPolicy", "Always"},
                   {"resources", {{"requests", {{"cpu", "500m"}}}}}},
              Container("setup", {{"requests", {{"cpu", "3"}}}})}}}),
       3500, 0},
      {"containers before or after initContainers",
       PodWith({{"initContainers",
                 {Container("setup", {{"requests", {{"memory", "1Gi"}}}})}},
                {"containers",
                 {Container("a", {{"requests", {{"memory", "2Gi"}}}})}}}),
       0, int64_t{2} << 30},
      {"no node", PodWith({{"containers", {Container("a", both)}}}, ""), 250,
       64 << 20},
      {"finished",
       PodWith({{"containers", {Container("a", both)}}}, "node-1", "Succeeded"),
       250, 64 << 20},
      {"no containers, null init", PodWith({{"initContainers", nullptr}}), 0,
       0},
      {"other resources and claims",
       PodWith({{"containers",
                 {Container("a", {{"requests",
                                   {{"cpu", "2"},
                                    {"ephemeral-storage", "1Gi"},
                                    {"example.com/foo", "1"}}},
                                  {"claims", {{{"name", "gpu"}}}}})}}}),
       2000, 0},
  };
  UnkeptPodReader reader;
  for (const auto& c : kCases) {
    SCOPED_TRACE(c.what);
    const std::string text = c.pod.dump();
    ASSERT_TRUE(ReadsAsTheUsualPath(reader, text));
    std::optional<UnkeptPod> pod = reader.Read(text);
    ASSERT_TRUE(pod.has_value());
    EXPECT_EQ(pod->request.cpu_milli, c.cpu_milli);
    EXPECT_EQ(pod->request.memory, c.memory);
  }
}

TEST(UnkeptPodReaderTest, LeavesEverythingElseToTheUsualPath) {
  const json cpu = {{"requests", {{"cpu", "1"}}}};
  json gcu = PodWith(
      {{"containers",
        {Container("a", {{"limits", {{"enflame.com/gcu-memory", "4"}}}})}}});
  json annotated = PodWith({{"containers", {Container("a", cpu)}}});
  annotated["metadata"]["annotations"] = {{"enflame.com/gcu-device-id", "0"}};
  json no_spec = PodWith({});
  no_spec.erase("spec");
  json no_uid = PodWith({{"containers", {Container("a", cpu)}}});
  no_uid["metadata"].erase("uid");
  const struct {
    const char* what;
    std::string text;
  } kCases[] = {
      {"asks for GCU memory", gcu.dump()},
      {"carries our annotation", annotated.dump()},
      {"our resource written with an escape",
       R"({"metadata":{"uid":"u"},"spec":{"containers":[{"resources":)"
       R"({"limits":{"enfl\u0061me.com/gcu-memory":"4"}}}]}})"},
      {"no spec", no_spec.dump()},
      {"no uid", no_uid.dump()},
      {"spec not an object", R"({"metadata":{"uid":"u"},"spec":[]})"},
      {"containers not a list",
       R"({"metadata":{"uid":"u"},"spec":{"containers":{}}})"},
      {"a container not an object",
       R"({"metadata":{"uid":"u"},"spec":{"containers":[1]}})"},
      {"cpu a number",
       R"({"metadata":{"uid":"u"},"spec":{"containers":[{"resources":)"
       R"({"requests":{"cpu":2}}}]}})"},
      {"cpu written twice",
       R"({"metadata":{"uid":"u"},"spec":{"containers":[{"resources":)"
       R"({"requests":{"cpu":"1","cpu":"2"}}}]}})"},
      {"spec written twice",
       R"({"metadata":{"uid":"u"},"spec":{},"spec":{"containers":[]}})"},
      {"an unreadable quantity",
       R"({"metadata":{"uid":"u"},"spec":{"containers":[{"resources":)"
       R"({"limits":{"memory":"lots"}}}]}})"},
      {"a quantity larger than any node",
       R"({"metadata":{"uid":"u"},"spec":{"containers":[{"resources":)"
       R"({"limits":{"cpu":"10E"}}}]}})"},
      {"nodeName not a string",
       R"({"metadata":{"uid":"u"},"spec":{"nodeName":1}})"},
      {"restartPolicy not a string",
       R"({"metadata":{"uid":"u"},"spec":{"initContainers":)"
       R"([{"restartPolicy":true}]}})"},
      {"malformed", R"({"metadata":{"uid":"u"},"spec":{"containers":[}})"},
      {"trailing content", R"({"metadata":{"uid":"u"},"spec":{}} {})"},
      {"not an object", "[1]"},
  };
  UnkeptPodReader reader;
  for (const auto& c : kCases) {
    SCOPED_TRACE(c.what);
    EXPECT_FALSE(reader.Read(c.text).has_value()) << c.text;
  }
}

// The scale benchmark's pods (realistic fields: labels, owner, a sidecar,
// env, volumes, status): every plain one is read, as the usual path reads
// it; no GCU pod is.
TEST(UnkeptPodReaderTest, ReadsEveryPlainScalePod) {
  testing::ScaleClusterSpec spec;
  spec.gcu_pods = 100;
  spec.plain_pods = 200;
  std::mt19937 rng(spec.seed);
  UnkeptPodReader reader;
  int plain = 0;
  int read = 0;
  for (int i = 0; i < spec.gcu_pods + spec.plain_pods; ++i) {
    const json pod = testing::ScalePod(spec, i, rng);
    const bool kept = PodKeptForm(pod).has_value();
    plain += kept ? 0 : 1;
    const bool took = ReadsAsTheUsualPath(reader, pod.dump());
    read += took ? 1 : 0;
    EXPECT_EQ(took, !kept) << i;
  }
  EXPECT_EQ(plain, 200);
  EXPECT_EQ(read, 200);
}

// PodFeed: the text path and OnUnkept() count the same in NodeResources.
TEST(UnkeptPodReaderTest, TakeUnkeptTextCountsWhatOnUnkeptCounts) {
  testing::ScaleClusterSpec spec;
  spec.nodes = 20;
  spec.gcu_pods = 0;
  spec.plain_pods = 300;
  std::mt19937 rng(spec.seed);
  CardCache cache_a;
  CardCache cache_b;
  NodeResources by_object;
  NodeResources by_text;
  PodFeed feed_a(&cache_a, nullptr, &by_object);
  PodFeed feed_b(&cache_b, nullptr, &by_text);
  for (NodeResources* resources : {&by_object, &by_text}) {
    for (int n = 0; n < spec.nodes; ++n) {
      ASSERT_TRUE(
          resources
              ->UpsertNode(
                  {{"metadata", {{"name", testing::ScaleNodeName(n)}}},
                   {"status",
                    {{"allocatable", {{"cpu", "64"}, {"memory", "256Gi"}}}}}})
              .ok());
    }
  }
  feed_a.OnRelistBegin();
  feed_b.OnRelistBegin();
  for (int i = 0; i < spec.plain_pods; ++i) {
    const std::string text = testing::ScalePod(spec, i, rng).dump();
    feed_a.OnUnkept(Decoded(text));
    ASSERT_TRUE(feed_b.TakeUnkeptText(text)) << i;
  }
  feed_a.OnRelistEnd();
  feed_b.OnRelistEnd();
  EXPECT_EQ(by_object.pod_count(), by_text.pod_count());
  EXPECT_GT(by_text.pod_count(), 0u);
  for (int n = 0; n < spec.nodes; ++n) {
    const std::string node = testing::ScaleNodeName(n);
    SCOPED_TRACE(node);
    auto a = by_object.Free(node);
    auto b = by_text.Free(node);
    ASSERT_TRUE(a.has_value());
    ASSERT_TRUE(b.has_value());
    EXPECT_EQ(a->cpu_milli, b->cpu_milli);
    EXPECT_EQ(a->memory, b->memory);
  }
  // A text the reader leaves is not taken, and counts nothing.
  EXPECT_FALSE(feed_b.TakeUnkeptText(R"({"spec":{}})"));
  EXPECT_EQ(by_object.pod_count(), by_text.pod_count());
}

}  // namespace
}  // namespace gcushare::extender
