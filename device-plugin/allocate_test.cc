// Allocate end to end: the stand-in kubelet calls the plugin over gRPC, the
// plugin finds the pod in the stand-in API server and marks it assigned.
#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

#include "contract/annotations.h"
#include "contract/names.h"
#include "device-plugin/testing/plugin_fixture.h"

namespace gcushare::deviceplugin {
namespace {

using namespace std::chrono_literals;
using testing::BoundPod;
using testing::PluginFixture;

std::string Assigned(const nlohmann::json& pod) {
  return pod["metadata"]["annotations"].value(
      std::string(contract::kPodAssigned), "");
}

class AllocateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(f_.StartPlugin().ok());
    ASSERT_TRUE(f_.WaitForDevices(128));
  }
  PluginFixture f_;
};

TEST_F(AllocateTest, SixteenIdenticalPodsAllocatedAtOnce) {
  std::vector<uint32_t> want_cards;
  for (int i = 0; i < 16; ++i) {
    const uint32_t card = static_cast<uint32_t>(i % 8);
    f_.CreateBoundPod({.name = "same-" + std::to_string(i),
                       .card = card,
                       .assign_time_ns = 1000});
    want_cards.push_back(card);
  }
  std::vector<StatusOr<peers::kubelet::ContainerAllocation>> results(
      16,
      StatusOr<peers::kubelet::ContainerAllocation>(InternalError("not run")));
  std::vector<std::thread> threads;
  threads.reserve(16);
  for (int i = 0; i < 16; ++i) {
    threads.emplace_back([&, i] { results[i] = f_.Allocate(4); });
  }
  for (auto& t : threads) t.join();

  std::vector<uint32_t> got_cards;
  std::set<std::string> ids;
  for (const auto& r : results) {
    ASSERT_TRUE(r.ok()) << r.status();
    ASSERT_EQ(r->response.cdi_devices_size(), 1);  // One card per pod.
    const std::string visible =
        r->response.envs().at("ENFLAME_VISIBLE_DEVICES");
    EXPECT_EQ(r->response.cdi_devices(0).name(), "enflame.com/gcu=" + visible);
    EXPECT_EQ(r->response.envs().at("GCUSHARE_MEMORY_LIMIT_MB"), "4096");
    got_cards.push_back(static_cast<uint32_t>(std::stoul(visible)));
    ids.insert(r->device_ids.begin(), r->device_ids.end());
  }
  EXPECT_EQ(ids.size(), 64u);  // kubelet never handed an ID twice.
  std::sort(want_cards.begin(), want_cards.end());
  std::sort(got_cards.begin(), got_cards.end());
  // Each pod was matched exactly once: the answers carry the pods' cards.
  EXPECT_EQ(got_cards, want_cards);
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(Assigned(f_.GetPod("same-" + std::to_string(i))), "true") << i;
  }
  // A 17th container finds no pod, and says why.
  auto extra = f_.Allocate(4);
  ASSERT_EQ(extra.status().code(), StatusCode::kNotFound);
  EXPECT_NE(extra.status().message().find("no pod on node node-1 waits for 4"),
            std::string::npos)
      << extra.status();
  EXPECT_NE(extra.status().message().find("considered 16 pod(s)"),
            std::string::npos)
      << extra.status();
}

TEST_F(AllocateTest, MultiContainerPodOneContainerPerCall) {
  f_.CreateBoundPod(
      {.name = "multi", .containers = {{"main", 4}, {"side", 2}}, .card = 3});
  auto main = f_.Allocate(4);
  ASSERT_TRUE(main.ok()) << main.status();
  EXPECT_EQ(main->response.envs().at("ENFLAME_VISIBLE_DEVICES"), "3");
  EXPECT_EQ(main->response.envs().at("GCUSHARE_MEMORY_LIMIT_MB"), "4096");
  EXPECT_EQ(Assigned(f_.GetPod("multi")), "false");  // side still to come.
  auto side = f_.Allocate(2);
  ASSERT_TRUE(side.ok()) << side.status();
  EXPECT_EQ(side->response.envs().at("ENFLAME_VISIBLE_DEVICES"), "3");
  EXPECT_EQ(side->response.envs().at("GCUSHARE_MEMORY_LIMIT_MB"), "2048");
  EXPECT_EQ(Assigned(f_.GetPod("multi")), "true");
}

TEST_F(AllocateTest, AnswersWithCdiAnnotationEnvAndDeviceSpec) {
  f_.CreateBoundPod({.name = "p", .card = 5});
  // GetPreferredAllocation reads the informer's pods only: wait until it
  // has this one (otherwise the preferred IDs depend on timing).
  auto deadline = std::chrono::steady_clock::now() + 30s;
  while (f_.plugin().pod_source()->Known().empty() &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(10ms);
  }
  auto r = f_.Allocate(4);
  ASSERT_TRUE(r.ok()) << r.status();
  // GetPreferredAllocation steered kubelet to card 5's IDs.
  for (const auto& id : r->device_ids) EXPECT_EQ(id.rfind("5-", 0), 0u) << id;
  const auto& c = r->response;
  EXPECT_EQ(c.annotations().at("cdi.k8s.io/enflame.com.gcu_5"),
            "enflame.com/gcu=5");
  EXPECT_EQ(c.envs().at("GCUSHARE_MEMORY_TOTAL_MB"), "16384");
  EXPECT_EQ(c.envs().at("GCUSHARE_MEMORY_UNIT"), "1");
  ASSERT_EQ(c.devices_size(), 1);
  EXPECT_EQ(c.devices(0).container_path(), "/dev/gcu5");
  EXPECT_EQ(c.devices(0).host_path(), "/dev/gcu5");
}

TEST_F(AllocateTest, NoMatchingPodSaysWhy) {
  f_.CreateBoundPod({.name = "small", .containers = {{"main", 2}}});
  auto r = f_.Allocate(4);
  ASSERT_EQ(r.status().code(), StatusCode::kNotFound);
  EXPECT_NE(r.status().message().find("default/small (container main "
                                      "requests 2)"),
            std::string::npos)
      << r.status();
  EXPECT_EQ(Assigned(f_.GetPod("small")), "false");
}

// kubelet does not call Allocate again for the same admission: when the
// pod matched but marking it assigned fails (API server gone), Allocate
// still answers with the card, and the mark is retried until it sticks.
TEST_F(AllocateTest, ApiServerGoneDuringAllocateStillHandsOutTheCard) {
  f_.CreateBoundPod({.name = "victim", .card = 6});
  // Let the plugin's informer see the pod first.
  auto deadline = std::chrono::steady_clock::now() + 30s;
  while (f_.plugin().pod_source()->Known().empty() &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(10ms);
  }
  ASSERT_EQ(f_.plugin().pod_source()->Known().size(), 1u);
  f_.StopApiServer();
  auto r = f_.Allocate(4);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->response.envs().at("ENFLAME_VISIBLE_DEVICES"), "6");

  // Once the API server is back, the background retry marks the pod.
  f_.RestartApiServer();
  deadline = std::chrono::steady_clock::now() + 60s;
  while (Assigned(f_.GetPod("victim")) != "true" &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(20ms);
  }
  EXPECT_EQ(Assigned(f_.GetPod("victim")), "true");
  // The container was handed out once: the same request finds no pod now.
  auto again = f_.Allocate(4);
  EXPECT_EQ(again.status().code(), StatusCode::kNotFound) << again.status();
}

// With the NRI plugin handing out cards, Allocate answers the environment
// only: no CDI device and no DeviceSpec, whose device-cgroup allow rule
// would stay in the container's spec for a wrongly guessed card after NRI
// removed its device node.
TEST(AllocateNriTest, DevicesFromNriAnswersNoDeviceAndNoCdi) {
  testing::FixtureOptions options;
  options.devices_from_nri = true;
  PluginFixture f(options);
  ASSERT_TRUE(f.StartPlugin().ok());
  ASSERT_TRUE(f.WaitForDevices(128));
  f.CreateBoundPod({.name = "p", .card = 3});
  auto r = f.Allocate(4);
  ASSERT_TRUE(r.ok()) << r.status();
  const auto& c = r->response;
  EXPECT_EQ(c.devices_size(), 0);
  EXPECT_EQ(c.cdi_devices_size(), 0);
  EXPECT_TRUE(c.annotations().empty());
  EXPECT_EQ(c.envs().at("ENFLAME_VISIBLE_DEVICES"), "3");
  EXPECT_EQ(c.envs().at("GCUSHARE_MEMORY_LIMIT_MB"), "4096");
}

}  // namespace
}  // namespace gcushare::deviceplugin
