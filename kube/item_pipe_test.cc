#include "kube/item_pipe.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

namespace gcushare::kube {
namespace {

// What a consumer saw, in order: "hint N" or the item's value.
struct Seen {
  std::vector<std::string> order;
  StatusOr<std::string> Drain(ItemPipe& pipe) {
    return pipe.Drain(
        [this](nlohmann::json item) { order.push_back(item.dump()); },
        [this](size_t n) { order.push_back("hint " + std::to_string(n)); });
  }
};

TEST(ItemPipeTest, DeliversHintItemsAndResultInOrderAcrossThreads) {
  // Batches of 2, at most 1 waiting: the producer must wait for the
  // consumer many times over.
  ItemPipe pipe(/*batch_items=*/2, /*max_batches=*/1);
  std::thread producer([&pipe] {
    pipe.PushHint(7);
    for (int i = 0; i < 7; ++i) pipe.Push(i);
    pipe.Close(std::string("rv 42"));
  });
  Seen seen;
  StatusOr<std::string> result = seen.Drain(pipe);
  producer.join();
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(*result, "rv 42");
  EXPECT_EQ(seen.order, (std::vector<std::string>{"hint 7", "0", "1", "2", "3",
                                                  "4", "5", "6"}));
}

TEST(ItemPipeTest, ItemsBeforeAnErrorAreDeliveredThenTheError) {
  ItemPipe pipe(/*batch_items=*/4, /*max_batches=*/2);
  std::thread producer([&pipe] {
    pipe.Push("a");
    pipe.Push("b");
    pipe.Close(DataLossError("page 2 is malformed"));
  });
  Seen seen;
  StatusOr<std::string> result = seen.Drain(pipe);
  producer.join();
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().message(), "page 2 is malformed");
  EXPECT_EQ(seen.order, (std::vector<std::string>{"\"a\"", "\"b\""}));
}

TEST(ItemPipeTest, AHintAfterItemsKeepsItsPlace) {
  ItemPipe pipe(/*batch_items=*/8, /*max_batches=*/4);
  pipe.Push(1);
  pipe.PushHint(3);
  pipe.Push(2);
  pipe.Close(std::string("done"));  // Room for all: one thread will do.
  Seen seen;
  EXPECT_EQ(*seen.Drain(pipe), "done");
  EXPECT_EQ(seen.order, (std::vector<std::string>{"1", "hint 3", "2"}));
}

TEST(ItemPipeTest, AnEmptyListEndsWithTheResultOnly) {
  ItemPipe pipe;
  pipe.Close(std::string("rv"));
  Seen seen;
  EXPECT_EQ(*seen.Drain(pipe), "rv");
  EXPECT_TRUE(seen.order.empty());
}

}  // namespace
}  // namespace gcushare::kube
