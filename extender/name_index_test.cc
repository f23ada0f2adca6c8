#include "extender/name_index.h"

#include <gtest/gtest.h>

#include <list>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

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

// Names compared inside the slot and through the borrowed view: equal
// prefixes, lengths at and past the inline limit, a name whose borrowed
// bytes change is still found by its copy only if it is short.
TEST(NameIndexTest, ComparesShortNamesInlineAndLongNamesBorrowed) {
  const size_t limit = NameIndex<int>::kInlineName;
  std::list<std::string> names = {
      std::string(limit, 'a'), std::string(limit + 1, 'a'),
      std::string(limit - 1, 'a') + "b", std::string(limit, 'a') + "b",
      std::string(300, 'n')};
  int values[5] = {0, 1, 2, 3, 4};
  NameIndex<int> index;
  int i = 0;
  for (const std::string& name : names) index.Insert(name, &values[i++]);
  i = 0;
  for (const std::string& name : names) {
    EXPECT_EQ(index.Find(std::string(name)), &values[i++]) << name.size();
  }
  EXPECT_EQ(index.Find(std::string(limit - 1, 'a')), nullptr);
  EXPECT_EQ(index.Find(std::string(limit + 2, 'a')), nullptr);
  EXPECT_EQ(index.Find(std::string(299, 'n') + "m"), nullptr);
  index.Erase(std::string(limit, 'a'));
  EXPECT_EQ(index.Find(std::string(limit, 'a')), nullptr);
  EXPECT_EQ(index.Find(std::string(limit + 1, 'a')), &values[1]);
  // A short name is compared against the slot's own copy: the borrowed
  // bytes are not read (they are still required to stay alive).
  std::string changing = "node-7";
  index.Insert(changing, &values[0]);
  changing[0] = 'x';
  EXPECT_EQ(index.Find("node-7"), &values[0]);
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
    if (rng() % 4 == 0) name += std::string(40, 'x');  // Past inline.
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
        std::string probe = "node-" + std::to_string(k);
        if (k % 2 == 0) probe += std::string(40, 'x');
        auto it = reference.find(probe);
        ASSERT_EQ(index.Find(probe),
                  it == reference.end() ? nullptr : it->second)
            << probe << " at step " << step;
      }
      ASSERT_EQ(index.size(), reference.size());
    }
  }
}

// Hash() spreads names that differ in one byte anywhere (node names differ
// in their last digits) over the low bits the slot is chosen by, about as
// a random function would; Find() with a precomputed hash is Find().
TEST(NameIndexTest, HashSpreadsSimilarNamesOverTheLowBits) {
  std::vector<std::string> names;
  names.reserve(5000 + 64);
  for (int i = 0; i < 5000; ++i) names.push_back("node-" + std::to_string(i));
  for (int i = 0; i < 64; ++i) {
    names.push_back(std::string(i, 'x') + "y" + std::string(63 - i, 'x'));
  }
  std::set<uint64_t> low;
  for (const std::string& name : names) {
    low.insert(NameIndex<int>::Hash(name) & 8191);
  }
  // A random function fills about 8192 * (1 - exp(-5064 / 8192)) = 3,780.
  EXPECT_GT(low.size(), 3500u);
  NameIndex<const std::string> index;
  for (const std::string& name : names) index.Insert(name, &name);
  for (const std::string& name : names) {
    ASSERT_EQ(index.Find(name, NameIndex<const std::string>::Hash(name)),
              &name);
  }
  EXPECT_EQ(index.Find("node-5000"), nullptr);
}

}  // namespace
}  // namespace gcushare::extender
