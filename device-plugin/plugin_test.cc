// The plugin against the stand-in kubelet and API server: registration,
// re-registration after a kubelet restart, a kubelet that is absent at
// start, and a card going unhealthy.
#include <gtest/gtest.h>

#include "contract/annotations.h"
#include "contract/names.h"
#include "device-plugin/testing/plugin_fixture.h"
#include "kube/json_fields.h"
#include "testing/files.h"

namespace gcushare::deviceplugin {
namespace {

using namespace std::chrono_literals;
using peers::kubelet::KubeletView;
using testing::CardsYaml;
using testing::FixtureOptions;
using testing::PluginFixture;

const std::string kMemory(contract::kResourceMemory);

std::string Annotation(const nlohmann::json& node, std::string_view key) {
  const nlohmann::json* a =
      kube::FindPath(node, {"metadata", "annotations", key});
  return a != nullptr && a->is_string() ? a->get<std::string>() : "";
}

std::string Quantity(const nlohmann::json& node, const char* field,
                     std::string_view resource) {
  const nlohmann::json* q = kube::FindPath(node, {"status", field, resource});
  return q != nullptr && q->is_string() ? q->get<std::string>() : "";
}

TEST(PluginTest, RegistersAndPublishes) {
  PluginFixture f;
  ASSERT_TRUE(f.StartPlugin().ok());
  ASSERT_TRUE(f.WaitForDevices(128));  // 8 cards x 16 GiB at unit 1.
  KubeletView view = f.kubelet().View();
  ASSERT_EQ(view.registrations.size(), 1u);
  const auto& r = view.registrations[0];
  EXPECT_EQ(r.version(), "v1beta1");
  EXPECT_EQ(r.resource_name(), "enflame.com/gcu-memory");
  EXPECT_EQ(r.endpoint(), "gcushare-gcu-memory.sock");
  EXPECT_TRUE(r.options().get_preferred_allocation_available());
  EXPECT_FALSE(r.options().pre_start_required());
  const auto& resource = view.resources.at(kMemory);
  EXPECT_TRUE(resource.options.get_preferred_allocation_available());
  EXPECT_EQ(resource.Healthy(), 128u);
  EXPECT_EQ(resource.devices[0].id(), "0-0");
  EXPECT_EQ(resource.devices[127].id(), "7-f");
  EXPECT_EQ(resource.devices[127].topology().nodes(0).id(), 1);

  ASSERT_TRUE(f.WaitForNode([](const nlohmann::json& node) {
    return Quantity(node, "capacity", contract::kResourceCount) == "8" &&
           !Annotation(node, contract::kNodeDevices).empty();
  }));
  nlohmann::json node = f.GetNode();
  EXPECT_EQ(Quantity(node, "allocatable", contract::kResourceCount), "8");
  EXPECT_EQ(Annotation(node, contract::kNodeMemoryUnit), "1");
  auto cards =
      contract::DecodeNodeCards(Annotation(node, contract::kNodeDevices));
  ASSERT_TRUE(cards.ok()) << cards.status();
  ASSERT_EQ(cards->size(), 8u);
  EXPECT_EQ((*cards)[7].uuid, "GCU-U0000000008");
  EXPECT_EQ((*cards)[7].memory_units, 16u);
  EXPECT_EQ((*cards)[7].numa, 1);
  // kubelet counts gcu-memory in device-ID mode: the plugin does not.
  EXPECT_EQ(Quantity(node, "capacity", contract::kResourceMemory), "");

  std::string spec =
      gcushare::testing::ReadFileOrEmpty(f.cdi_dir() + "/enflame.com-gcu.json");
  EXPECT_NE(spec.find("\"kind\": \"enflame.com/gcu\""), std::string::npos)
      << spec;
  EXPECT_NE(spec.find("/dev/gcu7"), std::string::npos);
}

TEST(PluginTest, RegistersAgainAfterAKubeletRestart) {
  PluginFixture f;
  ASSERT_TRUE(f.StartPlugin().ok());
  ASSERT_TRUE(f.WaitForDevices(128));
  for (int restart = 1; restart <= 2; ++restart) {
    ASSERT_TRUE(f.kubelet().Restart().ok());
    ASSERT_TRUE(f.kubelet().WaitUntil(
        [&](const KubeletView& v) {
          return v.registrations.size() == static_cast<size_t>(restart) + 1;
        },
        20s))
        << "restart " << restart;
    ASSERT_TRUE(f.WaitForDevices(128));
  }
  // The plugin counts a registration once kubelet's answer is back.
  auto deadline = std::chrono::steady_clock::now() + 20s;
  while (f.plugin().registration()->registrations() < 3 &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(10ms);
  }
  EXPECT_EQ(f.plugin().registration()->registrations(), 3u);
  // The plugin serves again: Allocate works after the restarts.
  f.CreateBoundPod({.name = "after-restart", .card = 2});
  auto allocation = f.Allocate(4);
  ASSERT_TRUE(allocation.ok()) << allocation.status();
  EXPECT_EQ(allocation->response.envs().at("ENFLAME_VISIBLE_DEVICES"), "2");
}

TEST(PluginTest, WaitsForAnAbsentKubelet) {
  FixtureOptions options;
  options.start_kubelet = false;
  PluginFixture f(options);
  ASSERT_TRUE(f.StartPlugin().ok());
  // The plugin keeps trying while kubelet is absent ...
  auto deadline = std::chrono::steady_clock::now() + 20s;
  while (f.plugin().registration()->failures() < 3 &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(10ms);
  }
  ASSERT_GE(f.plugin().registration()->failures(), 3u);
  EXPECT_EQ(f.plugin().registration()->registrations(), 0u);
  // ... and registers once it appears.
  ASSERT_TRUE(f.kubelet().Start().ok());
  ASSERT_TRUE(f.WaitForDevices(128));
  EXPECT_EQ(f.kubelet().View().registrations.size(), 1u);
}

TEST(PluginTest, AnUnhealthyCardReachesKubeletAndTheNode) {
  PluginFixture f;
  ASSERT_TRUE(f.StartPlugin().ok());
  ASSERT_TRUE(f.WaitForDevices(128));
  f.SetCards(CardsYaml(8, 16384, {1}));
  ASSERT_TRUE(f.kubelet().WaitUntil(
      [](const KubeletView& v) {
        auto it = v.resources.find(kMemory);
        return it != v.resources.end() && it->second.Count("Unhealthy") == 16;
      },
      20s));
  KubeletView view = f.kubelet().View();
  const auto& devices = view.resources.at(kMemory).devices;
  ASSERT_EQ(devices.size(), 128u);  // The full list, not a delta.
  for (const auto& d : devices) {
    EXPECT_EQ(d.health(), d.id().rfind("1-", 0) == 0 ? "Unhealthy" : "Healthy")
        << d.id();
  }
  ASSERT_TRUE(f.WaitForNode([](const nlohmann::json& node) {
    return Quantity(node, "allocatable", contract::kResourceCount) == "7" &&
           Annotation(node, contract::kNodeDevices).find("\"healthy\":false") !=
               std::string::npos;
  }));
  auto cards = contract::DecodeNodeCards(
      Annotation(f.GetNode(), contract::kNodeDevices));
  ASSERT_TRUE(cards.ok());
  EXPECT_FALSE((*cards)[1].healthy);
  EXPECT_TRUE((*cards)[0].healthy);

  // And back.
  f.SetCards(CardsYaml(8, 16384));
  ASSERT_TRUE(f.kubelet().WaitUntil(
      [](const KubeletView& v) {
        return v.resources.at(kMemory).Healthy() == 128;
      },
      20s));
}

}  // namespace
}  // namespace gcushare::deviceplugin
