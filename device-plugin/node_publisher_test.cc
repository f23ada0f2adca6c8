#include "device-plugin/node_publisher.h"

#include <gtest/gtest.h>

#include "contract/names.h"

namespace gcushare::deviceplugin {
namespace {

efml::Inventory Cards() {
  efml::Inventory inventory;
  for (uint32_t i = 0; i < 3; ++i) {
    efml::Card card;
    card.index = i;
    card.uuid = "GCU-" + std::to_string(i);
    card.memory_mib = 16384;
    card.device.path = efml::DefaultDevicePath(i);
    if (i < 2) card.numa_node = 0;
    card.healthy = i != 1;
    inventory.cards.push_back(card);
  }
  return inventory;
}

TEST(NodePublisherTest, DeviceIdModeLayout) {
  NodePublication publication =
      MakeNodePublication(Cards(), *contract::MemoryUnit::Parse("0.1"), false);
  EXPECT_EQ(publication.card_count, 3u);
  EXPECT_EQ(publication.healthy_card_count, 2u);
  EXPECT_FALSE(publication.memory_capacity);
  nlohmann::json status = NodeStatusPatch(publication);
  EXPECT_EQ(status, nlohmann::json::parse(R"({"status":{
      "capacity":{"enflame.com/gcu-count":"3"},
      "allocatable":{"enflame.com/gcu-count":"2"}}})"));
  nlohmann::json annotations = NodeAnnotationsPatch(publication);
  const auto& a = annotations["metadata"]["annotations"];
  EXPECT_EQ(a["enflame.com/gcu-memory-unit"], "0.1");
  // What a reader decodes (the extender, the NRI plugin) is what was made.
  auto read = contract::DecodeNodeLayout(a);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(*read, publication.layout);
  const std::vector<contract::NodeCard>& cards = read->cards;
  ASSERT_EQ(cards.size(), 3u);
  EXPECT_EQ(cards[1].memory_units, 160u);
  EXPECT_FALSE(cards[1].healthy);
  EXPECT_EQ(cards[0].numa, 0);
  EXPECT_FALSE(cards[2].numa);
}

TEST(NodePublisherTest, NodeStatusModeAddsMemoryCapacity) {
  NodePublication publication =
      MakeNodePublication(Cards(), *contract::MemoryUnit::Parse("0.001"), true);
  nlohmann::json status = NodeStatusPatch(publication);
  EXPECT_EQ(status["status"]["capacity"]["enflame.com/gcu-memory"], "48000");
  EXPECT_EQ(status["status"]["allocatable"]["enflame.com/gcu-memory"], "32000");
  EXPECT_EQ(status["status"]["capacity"]["enflame.com/gcu-count"], "3");
}

}  // namespace
}  // namespace gcushare::deviceplugin
