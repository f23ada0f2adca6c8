#include "device-plugin/device_ids.h"

#include <gtest/gtest.h>

#include <set>

namespace gcushare::deviceplugin {
namespace {

contract::MemoryUnit Unit(const char* text) {
  return *contract::MemoryUnit::Parse(text);
}

efml::Inventory Cards(uint32_t count, uint64_t mib,
                      std::optional<int> numa = std::nullopt) {
  efml::Inventory inventory;
  for (uint32_t i = 0; i < count; ++i) {
    efml::Card card;
    card.index = i;
    card.uuid = "GCU-" + std::to_string(i);
    card.memory_mib = mib;
    card.device.path = efml::DefaultDevicePath(i);
    card.numa_node = numa;
    inventory.cards.push_back(card);
  }
  return inventory;
}

TEST(DeviceIdTest, ShortBase36AndBack) {
  EXPECT_EQ(DeviceId(0, 0), "0-0");
  EXPECT_EQ(DeviceId(15, 35), "f-z");
  EXPECT_EQ(DeviceId(10, 36), "a-10");
  EXPECT_EQ(DeviceId(15, 95999), "f-222n");
  EXPECT_LE(DeviceId(15, 95999).size(), 6u);
  for (auto [card, unit] : std::vector<std::pair<uint32_t, uint64_t>>{
           {0, 0}, {7, 1599}, {15, 95999}, {35, 46655}, {UINT32_MAX, 1}}) {
    auto parsed = ParseDeviceId(DeviceId(card, unit));
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    EXPECT_EQ(parsed->card, card);
    EXPECT_EQ(parsed->unit, unit);
  }
}

TEST(DeviceIdTest, RejectsForeignIds) {
  for (const char* bad : {"", "0", "-1", "1-", "a_b", "A-1", "00-1", "1-01",
                          "GPU-1234", "1-2-3", "zzzzzzzzzzzzz-1"}) {
    auto parsed = ParseDeviceId(bad);
    EXPECT_EQ(parsed.status().code(), StatusCode::kInvalidArgument) << bad;
  }
  EXPECT_NE(ParseDeviceId("GPU-1234").status().message().find("GPU-1234"),
            std::string::npos);
}

TEST(DeviceListTest, OneIdPerUnitWithHealthAndNuma) {
  efml::Inventory inventory = Cards(2, 2048, 1);
  inventory.cards[1].healthy = false;
  auto list = BuildDeviceList(inventory, Unit("0.1"));
  ASSERT_EQ(list.devices_size(), 40);  // 2 GiB = 20 units of 0.1 per card.
  std::set<std::string> ids;
  for (const auto& d : list.devices()) ids.insert(d.id());
  EXPECT_EQ(ids.size(), 40u);
  EXPECT_EQ(list.devices(0).id(), "0-0");
  EXPECT_EQ(list.devices(0).health(), "Healthy");
  EXPECT_EQ(list.devices(20).id(), "1-0");
  EXPECT_EQ(list.devices(39).id(), "1-j");
  EXPECT_EQ(list.devices(39).health(), "Unhealthy");
  ASSERT_EQ(list.devices(0).topology().nodes_size(), 1);
  EXPECT_EQ(list.devices(0).topology().nodes(0).id(), 1);
  // Without a known NUMA node there is no topology.
  auto bare = BuildDeviceList(Cards(1, 1024), Unit("1"));
  ASSERT_EQ(bare.devices_size(), 1);
  EXPECT_FALSE(bare.devices(0).has_topology());
}

TEST(DeviceListTest, ComputedSizeMatchesTheEncoding) {
  for (const char* unit : {"1", "0.1", "0.01", "0.001"}) {
    for (std::optional<int> numa :
         {std::optional<int>(), std::optional<int>(0), std::optional<int>(1),
          std::optional<int>(200)}) {
      for (uint32_t cards : {1u, 3u, 12u}) {
        efml::Inventory inventory = Cards(cards, 5000, numa);
        if (cards > 1) inventory.cards[1].healthy = false;
        auto list = BuildDeviceList(inventory, Unit(unit));
        EXPECT_EQ(
            DeviceListBytes(inventory, Unit(unit), HealthAssumption::kAsIs),
            list.ByteSizeLong())
            << unit << " cards " << cards;
        for (auto& d : *list.mutable_devices()) d.set_health("Unhealthy");
        EXPECT_EQ(DeviceListBytes(inventory, Unit(unit),
                                  HealthAssumption::kAllUnhealthy),
                  list.ByteSizeLong());
      }
    }
  }
}

TEST(DeviceListTest, VendorsLimitFitsAndOurLargestDoesNot) {
  // 8 x 16 GiB at 0.01: 12,800 IDs, far below 4 MiB.
  EXPECT_LT(DeviceListBytes(Cards(8, 16384, 0), Unit("0.01"),
                            HealthAssumption::kAllUnhealthy),
            400u * 1024);
  // 8 x 16 GiB at 0.001 (the vendor's limit): 128,000 IDs, under 3.2 MiB
  // even when every card is unhealthy.
  EXPECT_LT(DeviceListBytes(Cards(8, 16384, 1), Unit("0.001"),
                            HealthAssumption::kAllUnhealthy),
            3277u * 1024);
  // 16 x 96 GiB at 0.001: 1,536,000 IDs, far over 4 MiB.
  efml::Inventory big = Cards(16, 98304, 1);
  EXPECT_EQ(TotalUnits(big, Unit("0.001")), 1536000u);
  EXPECT_GT(DeviceListBytes(big, Unit("0.001"), HealthAssumption::kAsIs),
            4u * 1024 * 1024);
}

}  // namespace
}  // namespace gcushare::deviceplugin
