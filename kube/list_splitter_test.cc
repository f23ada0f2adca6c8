#include "kube/list_splitter.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gcushare::kube {
namespace {

struct Split {
  Status status;
  std::vector<std::string> items;
  std::string rest;
};

// `text` fed in pieces of `piece` bytes (0: whole).
Split SplitText(std::string_view text, size_t piece, int max_depth = 100) {
  Split out;
  ListSplitter splitter(max_depth);
  auto each = [&out](std::string_view item) { out.items.emplace_back(item); };
  const size_t step = piece == 0 ? text.size() : piece;
  for (size_t at = 0; at < text.size(); at += step) {
    out.status = splitter.Feed(text.substr(at, step), each);
    if (!out.status.ok()) return out;
  }
  StatusOr<std::string> rest = splitter.Finish();
  out.status = rest.status();
  if (rest.ok()) out.rest = *rest;
  return out;
}

TEST(ListSplitterTest, HandsOverEachItemAndKeepsTheRest) {
  const std::string text =
      "{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"metadata\":{"
      "\"resourceVersion\":\"42\",\"note\":\"items [x] {y}\"},\"items\":[ "
      "{\"metadata\":{\"name\":\"a\"},\"s\":\"q\\\"}]\\\\\"},\n"
      "{\"metadata\":{\"name\":\"b\"},\"list\":[1,[2],{\"items\":[3]}]}"
      "],\"tail\":{\"items\":[{\"not\":\"split\"}]}}\n";
  // Every way of cutting the text: the same items, the same rest.
  for (size_t piece : {0, 1, 2, 3, 7, 64}) {
    Split split = SplitText(text, piece);
    ASSERT_TRUE(split.status.ok()) << piece << ": " << split.status;
    EXPECT_EQ(split.items,
              (std::vector<std::string>{
                  "{\"metadata\":{\"name\":\"a\"},\"s\":\"q\\\"}]\\\\\"}",
                  "{\"metadata\":{\"name\":\"b\"},\"list\":[1,[2],{\"items\":"
                  "[3]}]}"}))
        << piece;
    EXPECT_EQ(split.rest,
              "{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"metadata\":{"
              "\"resourceVersion\":\"42\",\"note\":\"items [x] {y}\"},"
              "\"items\":[],\"tail\":{\"items\":[{\"not\":\"split\"}]}}")
        << piece;
  }
}

TEST(ListSplitterTest, EmptyAndMissingItems) {
  Split empty = SplitText("{\"metadata\":{},\"items\":[]}", 1);
  ASSERT_TRUE(empty.status.ok()) << empty.status;
  EXPECT_TRUE(empty.items.empty());
  EXPECT_EQ(empty.rest, "{\"metadata\":{},\"items\":[]}");
  Split none = SplitText("{\"metadata\":{},\"items\":null}", 0);
  ASSERT_TRUE(none.status.ok()) << none.status;
  EXPECT_EQ(none.rest, "{\"metadata\":{},\"items\":null}");
}

TEST(ListSplitterTest, RefusesWhatIsNotAList) {
  struct Case {
    std::string text;
    std::string problem;
  };
  const Case cases[] = {
      {"", "cut short"},
      {"[1,2]", "not a JSON object"},
      {"{\"items\":[{\"a\":1}", "cut short"},
      {"{\"items\":[{\"a\":\"1}]}", "cut short"},  // In a string.
      {"{\"items\":[1,2]}", "an item that is not an object"},
      {"{\"items\":[]} x", "data after the list"},
      {"{\"items\":[{\"a\":[[[[1]]]]}]}", "nested too deep"},
  };
  for (const Case& c : cases) {
    Split split = SplitText(c.text, 1, /*max_depth=*/5);
    EXPECT_FALSE(split.status.ok()) << c.text;
    EXPECT_NE(split.status.message().find(c.problem), std::string::npos)
        << c.text << ": " << split.status;
  }
}

}  // namespace
}  // namespace gcushare::kube
