#include "efml/card.h"

#include <gtest/gtest.h>

#include "status/status.h"

namespace gcushare::efml {
namespace {

Card MakeCard(uint32_t index, std::string uuid) {
  Card card;
  card.index = index;
  card.uuid = std::move(uuid);
  card.memory_mib = 1024;
  card.device.path = DefaultDevicePath(index);
  return card;
}

TEST(CardTest, DefaultDevicePath) {
  EXPECT_EQ(DefaultDevicePath(0), "/dev/gcu0");
  EXPECT_EQ(DefaultDevicePath(12), "/dev/gcu12");
}

TEST(CardTest, NormalizeSortsByIndex) {
  Inventory inventory;
  inventory.cards = {MakeCard(2, "C"), MakeCard(0, "A"), MakeCard(1, "B")};
  ASSERT_TRUE(NormalizeInventory(inventory).ok());
  EXPECT_EQ(inventory.cards[0].uuid, "A");
  EXPECT_EQ(inventory.cards[1].uuid, "B");
  EXPECT_EQ(inventory.cards[2].uuid, "C");
}

TEST(CardTest, NormalizeRejectsBrokenInvariants) {
  Inventory duplicate_index;
  duplicate_index.cards = {MakeCard(1, "A"), MakeCard(1, "B")};
  EXPECT_EQ(NormalizeInventory(duplicate_index).message(),
            "card 1: index appears more than once");

  Inventory duplicate_uuid;
  duplicate_uuid.cards = {MakeCard(0, "A"), MakeCard(1, "A")};
  EXPECT_EQ(NormalizeInventory(duplicate_uuid).message(),
            "card 1: uuid A is used by another card");

  Inventory no_memory;
  no_memory.cards = {MakeCard(3, "A")};
  no_memory.cards[0].memory_mib = 0;
  EXPECT_EQ(NormalizeInventory(no_memory).message(),
            "card 3: memory must be positive");

  Inventory relative_control;
  relative_control.control_nodes.resize(1);
  relative_control.control_nodes[0].path = "dev/gcuctl";
  EXPECT_EQ(NormalizeInventory(relative_control).code(),
            StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace gcushare::efml
