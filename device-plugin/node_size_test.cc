// "Any node size at any unit" (docs/architecture.md): short IDs while they fit
// kubelet's 4 MiB, node-status mode past that.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include "contract/annotations.h"
#include "contract/names.h"
#include "device-plugin/advertise_mode.h"
#include "device-plugin/device_ids.h"
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

std::string Quantity(const nlohmann::json& node, const char* field,
                     std::string_view resource) {
  const nlohmann::json* q = kube::FindPath(node, {"status", field, resource});
  return q != nullptr && q->is_string() ? q->get<std::string>() : "";
}

TEST(NodeSizeTest, SixteenCardsOf96GiBAtUnit0001UseNodeStatusMode) {
  FixtureOptions options;
  options.cards_yaml = CardsYaml(16, 98304);
  options.unit = "0.001";
  PluginFixture f(options);
  ASSERT_TRUE(f.StartPlugin().ok());
  EXPECT_EQ(f.plugin().decision().mode, AdvertiseMode::kNodeStatus);
  EXPECT_EQ(f.plugin().decision().device_ids, 1536000u);
  EXPECT_GT(f.plugin().decision().worst_list_bytes, kKubeletMaxMessageBytes);

  ASSERT_TRUE(f.WaitForNode([](const nlohmann::json& node) {
    return Quantity(node, "capacity", contract::kResourceMemory) == "1536000" &&
           kube::FindPath(node, {"metadata", "annotations",
                                 contract::kNodeDevices}) != nullptr;
  }));
  nlohmann::json node = f.GetNode();
  EXPECT_EQ(Quantity(node, "allocatable", contract::kResourceMemory),
            "1536000");
  EXPECT_EQ(Quantity(node, "capacity", contract::kResourceCount), "16");
  const auto& annotations = node["metadata"]["annotations"];
  EXPECT_EQ(annotations[std::string(contract::kNodeMemoryUnit)], "0.001");
  auto cards = contract::DecodeNodeCards(
      annotations[std::string(contract::kNodeDevices)].get<std::string>());
  ASSERT_TRUE(cards.ok());
  ASSERT_EQ(cards->size(), 16u);
  for (const auto& card : *cards) EXPECT_EQ(card.memory_units, 96000u);
  std::string spec =
      gcushare::testing::ReadFileOrEmpty(f.cdi_dir() + "/enflame.com-gcu.json");
  EXPECT_NE(spec.find("/dev/gcu15"), std::string::npos);

  // No registration with kubelet and no plugin socket.
  EXPECT_EQ(f.plugin().registration(), nullptr);
  EXPECT_TRUE(f.kubelet().View().registrations.empty());
  struct stat st;
  EXPECT_NE(::stat((f.plugin_dir() + "/gcushare-gcu-memory.sock").c_str(), &st),
            0);

  // A card going unhealthy lowers allocatable, capacity stays.
  f.SetCards(CardsYaml(16, 98304, {3}));
  ASSERT_TRUE(f.WaitForNode([](const nlohmann::json& node) {
    return Quantity(node, "allocatable", contract::kResourceMemory) ==
           "1440000";
  }));
  node = f.GetNode();
  EXPECT_EQ(Quantity(node, "capacity", contract::kResourceMemory), "1536000");
  EXPECT_EQ(Quantity(node, "allocatable", contract::kResourceCount), "15");
}

TEST(NodeSizeTest, EightCardsOf16GiBAtUnit001StayInDeviceIdMode) {
  FixtureOptions options;
  options.unit = "0.01";
  PluginFixture f(options);
  ASSERT_TRUE(f.StartPlugin().ok());
  EXPECT_EQ(f.plugin().decision().mode, AdvertiseMode::kDeviceIds);
  ASSERT_TRUE(f.WaitForDevices(12800));
  KubeletView view = f.kubelet().View();
  const auto& resource = view.resources.at(kMemory);
  EXPECT_TRUE(resource.streaming) << resource.stream_end;
  v1beta1::ListAndWatchResponse seen;
  for (const auto& d : resource.devices) *seen.add_devices() = d;
  EXPECT_LT(seen.ByteSizeLong(), kKubeletMaxMessageBytes);

  // 4 GiB at 0.01 is 400 units; the container is told 4096 MiB.
  f.CreateBoundPod({.name = "fine", .containers = {{"main", 400}}, .card = 4});
  auto r = f.Allocate(400);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->response.envs().at("GCUSHARE_MEMORY_LIMIT_MB"), "4096");
  EXPECT_EQ(r->response.envs().at("GCUSHARE_MEMORY_UNIT"), "0.01");
  EXPECT_EQ(r->response.envs().at("ENFLAME_VISIBLE_DEVICES"), "4");
}

TEST(NodeSizeTest, TheVendorsLimitFitsThroughKubeletsFourMiB) {
  // 8 x 16 GiB at 0.001: 128,000 IDs, where the vendor's plugin stops.
  FixtureOptions options;
  options.unit = "0.001";
  PluginFixture f(options);
  ASSERT_TRUE(f.StartPlugin().ok());
  EXPECT_EQ(f.plugin().decision().mode, AdvertiseMode::kDeviceIds);
  ASSERT_TRUE(f.WaitForDevices(128000, 60s));
  EXPECT_TRUE(f.kubelet().View().resources.at(kMemory).streaming);
}

TEST(NodeSizeTest, ForcingDeviceIdsPastTheLimitRefusesToStart) {
  FixtureOptions options;
  options.cards_yaml = CardsYaml(16, 98304);
  options.unit = "0.001";
  options.mode = AdvertiseModeFlag::kDeviceIds;
  PluginFixture f(options);
  Status s = f.StartPlugin();
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("kubelet's limit"), std::string::npos) << s;
}

}  // namespace
}  // namespace gcushare::deviceplugin
