#include "nri-plugin/container_adjuster.h"

#include <gtest/gtest.h>

#include <map>

#include "base/clock.h"
#include "kube/testing/fake_kube_client.h"
#include "nri-plugin/fake_device_nodes.h"
#include "nri-plugin/pod_cache.h"
#include "nri-plugin/pod_lookup.h"

namespace gcushare::nri {
namespace {

using nlohmann::json;

std::map<std::string, std::string> Env(const api::CreateContainerResponse& r) {
  std::map<std::string, std::string> out;
  for (const auto& kv : r.adjust().env()) out[kv.key()] = kv.value();
  return out;
}

api::CreateContainerRequest Request(
    const std::map<std::string, std::string>& annotations,
    const std::string& container = "main") {
  api::CreateContainerRequest r;
  r.mutable_pod()->set_name("p");
  r.mutable_pod()->set_namespace_("default");
  r.mutable_pod()->set_uid("uid-1");
  for (const auto& [k, v] : annotations) {
    (*r.mutable_pod()->mutable_annotations())[k] = v;
  }
  r.mutable_container()->set_name(container);
  return r;
}

class ContainerAdjusterTest : public ::testing::Test {
 protected:
  void SetUp() override { nodes_.AddCards(4); }
  FakeDeviceNodes nodes_;
};

TEST_F(ContainerAdjusterTest, AnnotationsAloneWithFlagUnit) {
  ContainerAdjuster adjuster(&nodes_, nullptr,
                             {*contract::MemoryUnit::Parse("0.1")});
  auto r = adjuster.CreateContainer(
      Request({{"enflame.com/gcu-device-id", "1"},
               {"enflame.com/gcu-device-memory", "160"},
               {"enflame.com/gcu-device-memory-request", "40"}}));
  ASSERT_TRUE(r.ok()) << r.status();
  auto env = Env(*r);
  EXPECT_EQ(env["ENFLAME_VISIBLE_DEVICES"], "1");
  EXPECT_EQ(env["GCUSHARE_MEMORY_LIMIT_MB"], "4096");
  EXPECT_EQ(env["GCUSHARE_MEMORY_TOTAL_MB"], "16384");
  EXPECT_EQ(env["GCUSHARE_MEMORY_UNIT"], "0.1");
  ASSERT_EQ(r->adjust().linux().devices_size(), 1);
  EXPECT_EQ(r->adjust().linux().devices(0).minor(), 1);
}

TEST_F(ContainerAdjusterTest, NothingAskedNothingChanged) {
  ContainerAdjuster adjuster(&nodes_, nullptr, {});
  auto r = adjuster.CreateContainer(Request({{"other", "x"}}));
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->has_adjust());
  EXPECT_EQ(r->ByteSizeLong(), 0u);
}

TEST_F(ContainerAdjusterTest, MissingDeviceNodeFailsTheContainer) {
  nodes_.Remove("/dev/gcu3");
  ContainerAdjuster adjuster(&nodes_, nullptr, {});
  auto r =
      adjuster.CreateContainer(Request({{"enflame.com/gcu-device-id", "3"}}));
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
  EXPECT_NE(r.status().message().find("/dev/gcu3"), std::string::npos);
  EXPECT_NE(r.status().message().find("default/p"), std::string::npos);
  EXPECT_NE(r.status().message().find("without its card"), std::string::npos);
}

TEST_F(ContainerAdjusterTest, NodeAnnotationsGiveUnitAndCardSize) {
  NodeInfoCache info("n1");
  ContainerAdjuster adjuster(&nodes_, &info, {});
  auto request = Request({{"enflame.com/gcu-device-id", "2"},
                          {"enflame.com/gcu-device-memory-request", "400"}});
  // Before the watch brought the node: the flags.
  auto before = adjuster.CreateContainer(request);
  ASSERT_TRUE(before.ok()) << before.status();
  EXPECT_EQ(Env(*before)["GCUSHARE_MEMORY_UNIT"], "1");
  info.OnAdd({{"metadata",
               {{"name", "n1"},
                {"annotations",
                 {{"enflame.com/gcu-memory-unit", "0.01"},
                  {"enflame.com/gcu-devices",
                   R"([{"index":2,"uuid":"u","memory":1600}])"}}}}}});
  auto r = adjuster.CreateContainer(request);
  ASSERT_TRUE(r.ok()) << r.status();
  auto env = Env(*r);
  EXPECT_EQ(env["GCUSHARE_MEMORY_UNIT"], "0.01");
  EXPECT_EQ(env["GCUSHARE_MEMORY_LIMIT_MB"], "4096");
  EXPECT_EQ(env["GCUSHARE_MEMORY_TOTAL_MB"], "16384");
}

TEST_F(ContainerAdjusterTest, PodUnitAnnotationWins) {
  ContainerAdjuster adjuster(&nodes_, nullptr, {});
  auto r = adjuster.CreateContainer(
      Request({{"enflame.com/gcu-device-id", "0"},
               {"enflame.com/gcu-memory-unit", "0.1"},
               {"enflame.com/gcu-device-memory-request", "5"}}));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(Env(*r)["GCUSHARE_MEMORY_LIMIT_MB"], "512");
}

// A pod of the watch: `uid`, annotations, containers with their limits.
json CachedPod(const std::string& uid, json annotations, json containers) {
  return {
      {"metadata",
       {{"name", "p"},
        {"namespace", "default"},
        {"uid", uid},
        {"annotations", std::move(annotations)}}},
      {"spec", {{"nodeName", "n1"}, {"containers", std::move(containers)}}}};
}

TEST_F(ContainerAdjusterTest, PodWithoutAnnotationsIsReadFromTheCache) {
  PodCache pods(std::chrono::milliseconds(0));
  pods.OnAdd(CachedPod(
      "uid-1", {{"enflame.com/gcu-device-id", "1"}},
      {{{"name", "main"},
        {"resources", {{"limits", {{"enflame.com/gcu-count", "1"}}}}}}}));
  ContainerAdjuster adjuster(&nodes_, nullptr, {}, &pods);
  api::CreateContainerRequest request = Request({});
  auto r = adjuster.CreateContainer(request);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Env(*r)["ENFLAME_VISIBLE_DEVICES"], "1");
  EXPECT_EQ(Env(*r).count("GCUSHARE_MEMORY_LIMIT_MB"), 0u);  // Whole card.
  // A different incarnation of the pod is not trusted.
  request.mutable_pod()->set_uid("uid-2");
  EXPECT_EQ(adjuster.CreateContainer(request).status().code(),
            StatusCode::kNotFound);
}

TEST_F(ContainerAdjusterTest, SplitBetweenContainersComesFromTheSpec) {
  std::map<std::string, std::string> a = {
      {"enflame.com/gcu-device-id", "0"},
      {"enflame.com/gcu-device-memory-request", "6"},
      {"enflame.com/gcu-container-devices", R"({"a":[0],"b":[0]})"}};
  // Without API access this cannot be decided: the container fails.
  ContainerAdjuster offline(&nodes_, nullptr, {});
  EXPECT_EQ(offline.CreateContainer(Request(a, "b")).status().code(),
            StatusCode::kFailedPrecondition);
  json limits_a = {{"limits", {{"enflame.com/gcu-memory", "2"}}}};
  json limits_b = {{"limits", {{"enflame.com/gcu-memory", "4"}}}};
  PodCache pods(std::chrono::milliseconds(0));
  pods.OnAdd(CachedPod("uid-1", json(a),
                       {{{"name", "a"}, {"resources", limits_a}},
                        {{"name", "b"}, {"resources", limits_b}}}));
  ContainerAdjuster online(&nodes_, nullptr, {}, &pods);
  auto r = online.CreateContainer(Request(a, "b"));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Env(*r)["GCUSHARE_MEMORY_LIMIT_MB"], "4096");
}

TEST_F(ContainerAdjusterTest, MarksThePodAssignedWhenAllocateDidNot) {
  // A whole-card pod: kubelet never called Allocate, so the annotation still
  // says "false" until the card is handed out here.
  const std::map<std::string, std::string> annotations = {
      {"enflame.com/gcu-device-id", "2,3"},
      {"enflame.com/gcu-device-assigned", "false"}};
  kube::FakeKubeClient kube;
  json pod = {{"metadata", {{"name", "p"}, {"namespace", "default"}}}};
  for (const auto& [k, v] : annotations) {
    pod["metadata"]["annotations"][k] = v;
  }
  ASSERT_TRUE(kube.Seed(kube::Resource::Pods(), pod).ok());
  base::RealClock clock;
  assignment::AssignedMarker marker(
      &kube, &clock,
      {std::chrono::milliseconds(1), std::chrono::milliseconds(1), 1.0, 0.0});
  marker.Start();
  ContainerAdjuster adjuster(&nodes_, nullptr, {}, nullptr, &marker);
  ASSERT_TRUE(adjuster.CreateContainer(Request(annotations, "a")).ok());
  ASSERT_TRUE(adjuster.CreateContainer(Request(annotations, "b")).ok());
  ASSERT_TRUE(marker.WaitIdle(std::chrono::seconds(30)));
  auto after = kube.Get(kube::Resource::Pods(), "default", "p");
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(
      (*after)["metadata"]["annotations"]["enflame.com/gcu-device-assigned"],
      "true");
  int patches = 0;
  for (const std::string& a : kube.actions()) {
    patches += a.rfind("patch", 0) == 0;
  }
  EXPECT_EQ(patches, 1);  // One mark per pod, not per container.
  marker.Stop();
}

// Answers from a PodCache and counts the lookups.
class CountingPods : public PodLookup {
 public:
  explicit CountingPods(const PodCache* cache) : cache_(cache) {}
  StatusOr<PodPtr> Find(const std::string& uid, const std::string& who,
                        std::chrono::milliseconds cap) const override {
    ++finds_;
    return cache_->Find(uid, who, cap);
  }
  int finds() const { return finds_; }

 private:
  const PodCache* cache_;
  mutable int finds_ = 0;
};

// Whatever the container needs the pod for (its annotations, its own
// limit, the check that its spec asks for a card), the pod is read once;
// a container that asked for nothing costs no read.
TEST_F(ContainerAdjusterTest, ReadsThePodAtMostOnce) {
  json whole = {{"limits", {{"enflame.com/gcu-count", "1"}}}};
  json two_gib = {{"limits", {{"enflame.com/gcu-memory", "2"}}}};
  json four_gib = {{"limits", {{"enflame.com/gcu-memory", "4"}}}};
  std::map<std::string, std::string> shared_by_two = {
      {"enflame.com/gcu-device-id", "0"},
      {"enflame.com/gcu-device-memory-request", "6"},
      {"enflame.com/gcu-container-devices", R"({"a":[0],"b":[0]})"}};
  std::map<std::string, std::string> one_card = {
      {"enflame.com/gcu-device-id", "1"}};
  struct Case {
    const char* name;
    std::map<std::string, std::string> cached_annotations;
    json containers;
    api::CreateContainerRequest request;
    bool gets_card;
    int reads;
  };
  const Case cases[] = {
      {"sandbox without annotations", one_card,
       json::array({{{"name", "main"}, {"resources", whole}}}), Request({}),
       true, 1},
      {"own limit from the spec", shared_by_two,
       json::array({{{"name", "a"}, {"resources", two_gib}},
                    {{"name", "b"}, {"resources", four_gib}}}),
       Request(shared_by_two, "b"), true, 1},
      {"spec check only", one_card,
       json::array({{{"name", "main"}, {"resources", whole}}}),
       Request(one_card), true, 1},
      {"annotations without a request", one_card,
       json::array({{{"name", "main"}, {"resources", json::object()}}}),
       Request(one_card), false, 1},
      {"asked for nothing", shared_by_two,
       json::array({{{"name", "a"}, {"resources", two_gib}},
                    {{"name", "sidecar"}, {"resources", json::object()}}}),
       Request(shared_by_two, "sidecar"), false, 0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    PodCache cache(std::chrono::milliseconds(0));
    cache.OnAdd(CachedPod("uid-1", json(c.cached_annotations), c.containers));
    CountingPods pods(&cache);
    ContainerAdjuster adjuster(&nodes_, nullptr, {}, &pods);
    auto r = adjuster.CreateContainer(c.request);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(Env(*r).count("ENFLAME_VISIBLE_DEVICES"), c.gets_card ? 1u : 0u);
    EXPECT_EQ(pods.finds(), c.reads);
  }
}

// The pod wait is capped at half the runtime's request deadline.
TEST_F(ContainerAdjusterTest, PodWaitIsHalfTheRequestTimeout) {
  PodCache pods(std::chrono::milliseconds(1500));
  ContainerAdjuster adjuster(&nodes_, nullptr, {}, &pods);
  EXPECT_EQ(adjuster.pod_wait_cap(), std::chrono::milliseconds(1000));
  adjuster.SetRequestTimeout(std::chrono::milliseconds(300));
  EXPECT_EQ(adjuster.pod_wait_cap(), std::chrono::milliseconds(150));
  auto r = adjuster.CreateContainer(Request({}));
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
  EXPECT_NE(r.status().message().find("after 150 ms"), std::string::npos)
      << r.status();
  adjuster.SetRequestTimeout(std::chrono::milliseconds(0));  // 1.7: none.
  EXPECT_EQ(adjuster.pod_wait_cap(), std::chrono::milliseconds(1000));
}

}  // namespace
}  // namespace gcushare::nri
