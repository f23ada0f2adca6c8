#include "nri-plugin/container_adjuster.h"

#include <gtest/gtest.h>

#include <map>

#include "kube/fake_clock.h"
#include "kube/fake_kube_client.h"
#include "nri-plugin/fake_device_nodes.h"

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
  kube::FakeKubeClient kube_;
  kube::FakeClock clock_;
};

TEST_F(ContainerAdjusterTest, AnnotationsAloneWithFlagUnit) {
  ContainerAdjuster adjuster(&nodes_, nullptr, nullptr,
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
  ContainerAdjuster adjuster(&nodes_, nullptr, nullptr, {});
  auto r = adjuster.CreateContainer(Request({{"other", "x"}}));
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->has_adjust());
  EXPECT_EQ(r->ByteSizeLong(), 0u);
}

TEST_F(ContainerAdjusterTest, MissingDeviceNodeFailsTheContainer) {
  nodes_.Remove("/dev/gcu3");
  ContainerAdjuster adjuster(&nodes_, nullptr, nullptr, {});
  auto r =
      adjuster.CreateContainer(Request({{"enflame.com/gcu-device-id", "3"}}));
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
  EXPECT_NE(r.status().message().find("/dev/gcu3"), std::string::npos);
  EXPECT_NE(r.status().message().find("default/p"), std::string::npos);
  EXPECT_NE(r.status().message().find("without its card"), std::string::npos);
}

TEST_F(ContainerAdjusterTest, NodeAnnotationsGiveUnitAndCardSize) {
  ASSERT_TRUE(kube_
                  .Seed(kube::Resource::Nodes(),
                        {{"metadata",
                          {{"name", "n1"},
                           {"annotations",
                            {{"enflame.com/gcu-memory-unit", "0.01"},
                             {"enflame.com/gcu-devices",
                              R"([{"index":2,"uuid":"u","memory":1600}])"}}}}}})
                  .ok());
  NodeInfoCache info(&kube_, "n1", &clock_);
  ContainerAdjuster adjuster(&nodes_, &kube_, &info, {});
  auto r = adjuster.CreateContainer(
      Request({{"enflame.com/gcu-device-id", "2"},
               {"enflame.com/gcu-device-memory-request", "400"}}));
  ASSERT_TRUE(r.ok()) << r.status();
  auto env = Env(*r);
  EXPECT_EQ(env["GCUSHARE_MEMORY_UNIT"], "0.01");
  EXPECT_EQ(env["GCUSHARE_MEMORY_LIMIT_MB"], "4096");
  EXPECT_EQ(env["GCUSHARE_MEMORY_TOTAL_MB"], "16384");
  // Cached: a second container does not read the node again.
  ASSERT_TRUE(adjuster
                  .CreateContainer(Request(
                      {{"enflame.com/gcu-device-id", "2"},
                       {"enflame.com/gcu-device-memory-request", "400"}}))
                  .ok());
  int gets = 0;
  for (const std::string& a : kube_.actions()) gets += a.rfind("get", 0) == 0;
  EXPECT_EQ(gets, 1);
}

TEST_F(ContainerAdjusterTest, PodUnitAnnotationWins) {
  ContainerAdjuster adjuster(&nodes_, nullptr, nullptr, {});
  auto r = adjuster.CreateContainer(
      Request({{"enflame.com/gcu-device-id", "0"},
               {"enflame.com/gcu-memory-unit", "0.1"},
               {"enflame.com/gcu-device-memory-request", "5"}}));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(Env(*r)["GCUSHARE_MEMORY_LIMIT_MB"], "512");
}

TEST_F(ContainerAdjusterTest, PodWithoutAnnotationsIsReadFromTheApi) {
  auto seeded =
      kube_.Seed(kube::Resource::Pods(),
                 {{"metadata",
                   {{"name", "p"},
                    {"namespace", "default"},
                    {"annotations", {{"enflame.com/gcu-device-id", "1"}}}}},
                  {"spec",
                   {{"containers",
                     {{{"name", "main"},
                       {"resources",
                        {{"limits", {{"enflame.com/gcu-count", "1"}}}}}}}}}}});
  ASSERT_TRUE(seeded.ok());
  ContainerAdjuster adjuster(&nodes_, &kube_, nullptr, {});
  api::CreateContainerRequest request = Request({});
  request.mutable_pod()->set_uid((*seeded)["metadata"]["uid"]);
  auto r = adjuster.CreateContainer(request);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Env(*r)["ENFLAME_VISIBLE_DEVICES"], "1");
  EXPECT_EQ(Env(*r).count("GCUSHARE_MEMORY_LIMIT_MB"), 0u);  // Whole card.
  // A different incarnation of the pod is not trusted.
  request.mutable_pod()->set_uid("uid-2");
  EXPECT_EQ(adjuster.CreateContainer(request).status().code(),
            StatusCode::kNotFound);
}

TEST_F(ContainerAdjusterTest, MarksThePodAssignedWhenAllocateDidNot) {
  // A whole-card pod: kubelet never called Allocate, so the annotation still
  // says "false" until the card is handed out here.
  const std::map<std::string, std::string> annotations = {
      {"enflame.com/gcu-device-id", "2,3"},
      {"enflame.com/gcu-device-assigned", "false"}};
  json pod = {{"metadata", {{"name", "p"}, {"namespace", "default"}}}};
  for (const auto& [k, v] : annotations) {
    pod["metadata"]["annotations"][k] = v;
  }
  ASSERT_TRUE(kube_.Seed(kube::Resource::Pods(), pod).ok());
  ContainerAdjuster adjuster(&nodes_, &kube_, nullptr, {});
  ASSERT_TRUE(adjuster.CreateContainer(Request(annotations)).ok());
  auto after = kube_.Get(kube::Resource::Pods(), "default", "p");
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(
      (*after)["metadata"]["annotations"]["enflame.com/gcu-device-assigned"],
      "true");

  // Already "true": nothing is patched (the pod is gone, so a patch would
  // have failed loudly in the log; the container is created either way).
  ASSERT_TRUE(kube_.Delete(kube::Resource::Pods(), "default", "p", {}).ok());
  auto assigned = annotations;
  assigned["enflame.com/gcu-device-assigned"] = "true";
  EXPECT_TRUE(adjuster.CreateContainer(Request(assigned)).ok());
  // A failed patch does not fail the container.
  EXPECT_TRUE(adjuster.CreateContainer(Request(annotations)).ok());
}

TEST_F(ContainerAdjusterTest, SplitBetweenContainersComesFromTheSpec) {
  std::map<std::string, std::string> a = {
      {"enflame.com/gcu-device-id", "0"},
      {"enflame.com/gcu-device-memory-request", "6"},
      {"enflame.com/gcu-container-devices", R"({"a":[0],"b":[0]})"}};
  // Without API access this cannot be decided: the container fails.
  ContainerAdjuster offline(&nodes_, nullptr, nullptr, {});
  EXPECT_EQ(offline.CreateContainer(Request(a, "b")).status().code(),
            StatusCode::kFailedPrecondition);
  json limits_a = {{"limits", {{"enflame.com/gcu-memory", "2"}}}};
  json limits_b = {{"limits", {{"enflame.com/gcu-memory", "4"}}}};
  auto seeded =
      kube_.Seed(kube::Resource::Pods(),
                 {{"metadata", {{"name", "p"}, {"namespace", "default"}}},
                  {"spec",
                   {{"containers",
                     {{{"name", "a"}, {"resources", limits_a}},
                      {{"name", "b"}, {"resources", limits_b}}}}}}});
  ASSERT_TRUE(seeded.ok());
  ContainerAdjuster online(&nodes_, &kube_, nullptr, {});
  api::CreateContainerRequest request = Request(a, "b");
  request.mutable_pod()->set_uid((*seeded)["metadata"]["uid"]);
  auto r = online.CreateContainer(request);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Env(*r)["GCUSHARE_MEMORY_LIMIT_MB"], "4096");
}

}  // namespace
}  // namespace gcushare::nri
