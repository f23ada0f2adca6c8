#include "extender/name_index.h"

#include <gtest/gtest.h>

#include <list>
#include <map>
#include <random>
#include <string>

namespace gcushare::extender {
namespace {

TEST(NameIndexTest, FindsWhatWasInsertedAndNothingElse) {
  std::list<std::string> names = {"node-1", "node-2", ""};
  int values[3] = {1, 2, 3};
  NameIndex<int> index;
  EXPECT_EQ(index.Find("node-1"), nullptr);
  int i = 0;
  for (const std::string& name : names) index.Insert(name, &values[i++]);
  EXPECT_EQ(index.size(), 3u);
  EXPECT_EQ(index.Find("node-1"), &values[0]);
  EXPECT_EQ(index.Find(""), &values[2]);
  EXPECT_EQ(index.Find("node-3"), nullptr);
  index.Insert(names.front(), &values[1]);  // Replaces.
  EXPECT_EQ(index.Find("node-1"), &values[1]);
  EXPECT_EQ(index.size(), 3u);
  index.Erase("node-1");
  index.Erase("absent");
  EXPECT_EQ(index.Find("node-1"), nullptr);
  EXPECT_EQ(index.Find("node-2"), &values[1]);
  EXPECT_EQ(index.size(), 2u);
}

// Random inserts and erases against std::map: every probe chain stays
// whole through growth and backward-shift deletion (wrapping included).
TEST(NameIndexTest, AgreesWithAMapThroughRandomInsertsAndErases) {
  std::mt19937 rng(3);
  std::list<std::string> storage;  // Names never move.
  std::map<std::string, int*, std::less<>> reference;
  std::list<int> values;
  NameIndex<int> index;
  for (int step = 0; step < 20000; ++step) {
    std::string name = "node-" + std::to_string(rng() % 3000);
    if (rng() % 3 != 0) {
      auto it = reference.find(name);
      if (it == reference.end()) {
        storage.push_back(name);
        values.push_back(step);
        reference.emplace(name, &values.back());
        index.Insert(storage.back(), &values.back());
      }
    } else {
      reference.erase(name);
      index.Erase(name);
    }
    if (step % 1000 == 0) {
      for (int k = 0; k < 3000; ++k) {
        const std::string probe = "node-" + std::to_string(k);
        auto it = reference.find(probe);
        ASSERT_EQ(index.Find(probe),
                  it == reference.end() ? nullptr : it->second)
            << probe << " at step " << step;
      }
      ASSERT_EQ(index.size(), reference.size());
    }
  }
}

}  // namespace
}  // namespace gcushare::extender
