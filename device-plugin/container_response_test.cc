#include "device-plugin/container_response.h"

#include <gtest/gtest.h>

#include "contract/names.h"

namespace gcushare::deviceplugin {
namespace {

efml::Inventory Inventory() {
  efml::Inventory inventory;
  for (uint32_t i = 0; i < 4; ++i) {
    efml::Card card;
    card.index = i;
    card.uuid = "GCU-" + std::to_string(i);
    card.memory_mib = 16384;
    card.device.path = "/host/dev/gcu" + std::to_string(i);
    inventory.cards.push_back(card);
  }
  inventory.control_nodes.push_back({"/dev/gcuctl", {}, {}});
  return inventory;
}

PodMatch Match(std::vector<uint32_t> cards, uint64_t units) {
  PodMatch m;
  m.namespace_name = "default";
  m.name = "p";
  m.container.name = "main";
  m.container.memory_units = units;
  m.cards = std::move(cards);
  return m;
}

TEST(ContainerResponseTest, CdiNameAnnotationEnvAndDevices) {
  auto r = BuildContainerResponse(Match({2}, 40), Inventory(),
                                  *contract::MemoryUnit::Parse("0.1"), {});
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->cdi_devices_size(), 1);
  EXPECT_EQ(r->cdi_devices(0).name(), "enflame.com/gcu=2");
  ASSERT_EQ(r->annotations().size(), 1u);
  EXPECT_EQ(r->annotations().at("cdi.k8s.io/enflame.com.gcu_2"),
            "enflame.com/gcu=2");
  EXPECT_EQ(r->envs().at("ENFLAME_VISIBLE_DEVICES"), "2");
  EXPECT_EQ(r->envs().at("GCUSHARE_MEMORY_LIMIT_MB"), "4096");  // 40 x 0.1.
  EXPECT_EQ(r->envs().at("GCUSHARE_MEMORY_TOTAL_MB"), "16384");
  EXPECT_EQ(r->envs().at("GCUSHARE_MEMORY_UNIT"), "0.1");
  ASSERT_EQ(r->devices_size(), 2);
  EXPECT_EQ(r->devices(0).container_path(), "/dev/gcu2");
  EXPECT_EQ(r->devices(0).host_path(), "/host/dev/gcu2");
  EXPECT_EQ(r->devices(0).permissions(), "rw");
  EXPECT_EQ(r->devices(1).container_path(), "/dev/gcuctl");
  EXPECT_TRUE(r->mounts().empty());
}

TEST(ContainerResponseTest, AnnotationKeyFollowsTheCdiRules) {
  // docs/protocols.md 5.6: at most 63 characters after the prefix, alphanumeric
  // at both ends, [A-Za-z0-9_.-] in between.
  for (const auto& cards :
       std::vector<std::vector<uint32_t>>{{0}, {15}, {2, 3}, {4294967295u}}) {
    std::string key = CdiAnnotationKey(cards);
    ASSERT_EQ(key.rfind("cdi.k8s.io/", 0), 0u);
    std::string name = key.substr(11);
    EXPECT_LE(name.size(), 63u);
    EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(name.front())));
    EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(name.back())));
    for (char c : name) {
      EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
                  c == '.' || c == '-')
          << key;
    }
  }
  EXPECT_EQ(CdiAnnotationKey({2, 3}), "cdi.k8s.io/enflame.com.gcu_2-3");
}

TEST(ContainerResponseTest, DeviceSpecsCanBeTurnedOff) {
  auto r =
      BuildContainerResponse(Match({1}, 4), Inventory(), contract::MemoryUnit(),
                             ResponseOptions{.device_specs = false});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->devices_size(), 0);
  EXPECT_EQ(r->cdi_devices_size(), 1);
  EXPECT_EQ(r->envs().at("GCUSHARE_MEMORY_LIMIT_MB"), "4096");
  EXPECT_EQ(r->envs().at("GCUSHARE_MEMORY_UNIT"), "1");
}

TEST(ContainerResponseTest, UnknownCardIsAnError) {
  auto r = BuildContainerResponse(Match({9}, 4), Inventory(),
                                  contract::MemoryUnit(), {});
  EXPECT_EQ(r.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(r.status().message().find("default/p is assigned card 9"),
            std::string::npos);
}

}  // namespace
}  // namespace gcushare::deviceplugin
