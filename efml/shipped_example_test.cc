// The example file shipped in configs/ (used by the demo) parses to the
// 8 x 16 GiB node that docs/demo.md and the demo describe.
#include <gtest/gtest.h>

#include "efml/fake_card_source.h"
#include "testing/subprocess.h"

namespace gcushare::efml {
namespace {

TEST(ShippedExampleTest, EightCardsOf16GiB) {
  FakeCardSource source(testing::RunfilePath("configs/fake-cards.yaml"));
  StatusOr<Inventory> inventory = source.Discover();
  ASSERT_TRUE(inventory.ok()) << inventory.status();
  ASSERT_EQ(inventory->cards.size(), 8u);
  for (uint32_t i = 0; i < 8; ++i) {
    const Card& card = inventory->cards[i];
    EXPECT_EQ(card.index, i);
    EXPECT_EQ(card.memory_mib, 16384u);
    EXPECT_EQ(card.uuid, "GCU-U000000000" + std::to_string(i + 1));
    EXPECT_EQ(card.device.path, "/dev/gcu" + std::to_string(i));
    EXPECT_EQ(card.numa_node, i < 4 ? 0 : 1);
    EXPECT_TRUE(card.healthy);
  }
}

}  // namespace
}  // namespace gcushare::efml
