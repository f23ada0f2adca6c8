#include "device-plugin/advertise_mode.h"

#include <gtest/gtest.h>

namespace gcushare::deviceplugin {
namespace {

contract::MemoryUnit Unit(const char* text) {
  return *contract::MemoryUnit::Parse(text);
}

efml::Inventory Cards(uint32_t count, uint64_t mib) {
  efml::Inventory inventory;
  for (uint32_t i = 0; i < count; ++i) {
    efml::Card card;
    card.index = i;
    card.uuid = "GCU-" + std::to_string(i);
    card.memory_mib = mib;
    card.device.path = efml::DefaultDevicePath(i);
    card.numa_node = static_cast<int>(i / 4);
    inventory.cards.push_back(card);
  }
  return inventory;
}

TEST(AdvertiseModeTest, ParsesTheFlag) {
  EXPECT_EQ(*ParseAdvertiseModeFlag("auto"), AdvertiseModeFlag::kAuto);
  EXPECT_EQ(*ParseAdvertiseModeFlag("device-ids"),
            AdvertiseModeFlag::kDeviceIds);
  EXPECT_EQ(*ParseAdvertiseModeFlag("node-status"),
            AdvertiseModeFlag::kNodeStatus);
  auto bad = ParseAdvertiseModeFlag("nodes");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("auto, device-ids, node-status"),
            std::string::npos);
}

TEST(AdvertiseModeTest, AutoPicksByTheWorstCaseSize) {
  // Every card count x unit of the "any node size" goal.
  for (uint32_t cards : {1u, 8u, 16u}) {
    for (uint64_t gib : {16u, 32u, 64u, 96u}) {
      for (const char* unit : {"1", "0.1", "0.01", "0.001"}) {
        auto d = DecideMode(Cards(cards, gib * 1024), Unit(unit),
                            AdvertiseModeFlag::kAuto);
        ASSERT_TRUE(d.ok());
        if (d->mode == AdvertiseMode::kDeviceIds) {
          EXPECT_LE(d->worst_list_bytes, kDefaultListBudgetBytes);
        } else {
          EXPECT_GT(d->worst_list_bytes, kDefaultListBudgetBytes);
        }
      }
    }
  }
  auto big =
      DecideMode(Cards(16, 98304), Unit("0.001"), AdvertiseModeFlag::kAuto);
  ASSERT_TRUE(big.ok());
  EXPECT_EQ(big->mode, AdvertiseMode::kNodeStatus);
  EXPECT_EQ(big->device_ids, 1536000u);
  EXPECT_NE(big->reason.find("node-status mode"), std::string::npos);
  auto small =
      DecideMode(Cards(8, 16384), Unit("0.01"), AdvertiseModeFlag::kAuto);
  ASSERT_TRUE(small.ok());
  EXPECT_EQ(small->mode, AdvertiseMode::kDeviceIds);
  EXPECT_EQ(small->device_ids, 12800u);
}

TEST(AdvertiseModeTest, ForcedModes) {
  auto forced =
      DecideMode(Cards(1, 1024), Unit("1"), AdvertiseModeFlag::kNodeStatus);
  ASSERT_TRUE(forced.ok());
  EXPECT_EQ(forced->mode, AdvertiseMode::kNodeStatus);
  // Between the budget and 4 MiB, device-ids may be forced ...
  auto tight = DecideMode(Cards(8, 16384), Unit("0.001"),
                          AdvertiseModeFlag::kDeviceIds, 1000);
  ASSERT_TRUE(tight.ok());
  EXPECT_EQ(tight->mode, AdvertiseMode::kDeviceIds);
  // ... but not past kubelet's limit.
  auto impossible = DecideMode(Cards(16, 98304), Unit("0.001"),
                               AdvertiseModeFlag::kDeviceIds);
  EXPECT_EQ(impossible.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(impossible.status().message().find("4194304"), std::string::npos);
}

}  // namespace
}  // namespace gcushare::deviceplugin
