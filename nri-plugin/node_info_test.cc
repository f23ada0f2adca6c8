#include "nri-plugin/node_info.h"

#include <gtest/gtest.h>

#include "contract/node_layout.h"

namespace gcushare::nri {
namespace {

nlohmann::json Node(nlohmann::json annotations) {
  return {{"metadata", {{"name", "n1"}, {"annotations", annotations}}}};
}

// What the device plugin writes (contract::EncodeNodeLayout).
nlohmann::json Published(const char* unit, uint64_t memory) {
  contract::NodeLayout layout;
  layout.unit = *contract::MemoryUnit::Parse(unit);
  layout.cards = {{0, "U0", memory, true, 0}, {3, "U3", memory, false, 1}};
  return contract::EncodeNodeLayout(layout);
}

TEST(NodeInfoTest, ReadsWhatTheDevicePluginPublishes) {
  auto info = DecodeNodeGcuInfo(Node(Published("0.01", 1600)));
  ASSERT_TRUE(info.ok()) << info.status();
  ASSERT_TRUE(info->unit.has_value());
  EXPECT_EQ(info->unit->ToString(), "0.01");
  EXPECT_EQ(info->card_memory_units,
            (std::map<uint32_t, uint64_t>{{0, 1600}, {3, 1600}}));
}

TEST(NodeInfoTest, NothingPublishedIsEmpty) {
  for (const nlohmann::json& node :
       {nlohmann::json::object(), Node(nullptr), Node({{"other", "x"}}),
        nlohmann::json("not a node")}) {
    auto info = DecodeNodeGcuInfo(node);
    ASSERT_TRUE(info.ok()) << node.dump() << ": " << info.status();
    EXPECT_FALSE(info->unit.has_value());
    EXPECT_TRUE(info->card_memory_units.empty());
  }
}

TEST(NodeInfoTest, BadLayoutKeepsTheLastGoodOne) {
  NodeInfoCache cache("n1");
  EXPECT_EQ(cache.Get().status().code(), StatusCode::kUnavailable);
  cache.OnAdd(Node(Published("0.1", 160)));
  for (const nlohmann::json& bad :
       {nlohmann::json{{"enflame.com/gcu-memory-unit", "0.5"},
                       {"enflame.com/gcu-devices", "[]"}},
        nlohmann::json{{"enflame.com/gcu-memory-unit", "1"},
                       {"enflame.com/gcu-devices", "[{"}},
        nlohmann::json{{"enflame.com/gcu-memory-unit", "1"}}}) {
    EXPECT_FALSE(DecodeNodeGcuInfo(Node(bad)).ok()) << bad.dump();
    cache.OnUpdate(Node(Published("0.1", 160)), Node(bad));
    auto info = cache.Get();
    ASSERT_TRUE(info.ok()) << info.status();
    EXPECT_EQ(info->unit->ToString(), "0.1") << bad.dump();
    EXPECT_EQ(info->card_memory_units.at(3), 160u) << bad.dump();
  }
}

}  // namespace
}  // namespace gcushare::nri
