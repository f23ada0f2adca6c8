#include "tests/peers/apiserver/journal.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "testing/files.h"
#include "tests/peers/apiserver/object_meta.h"
#include "tests/peers/apiserver/object_store.h"

namespace gcushare::apiserver {
namespace {

using ::gcushare::testing::MakeTempDir;
using ::gcushare::testing::ReadFileOrEmpty;
using ::gcushare::testing::WriteFileOrDie;

Json Node(const std::string& name) {
  return {
      {"kind", "Node"}, {"apiVersion", "v1"}, {"metadata", {{"name", name}}}};
}

TEST(JournalTest, StoreStateSurvivesAReopen) {
  std::string path = MakeTempDir() + "/state.jsonl";
  {
    Journal::State state;
    auto journal = Journal::Open(path, &state);
    ASSERT_TRUE(journal.ok()) << journal.status();
    EXPECT_EQ(state.rv, 0);
    ObjectStore store({.journal = journal->get()});
    ASSERT_TRUE(store.Create("nodes", "n1", Node("n1")).ok());  // 1
    ASSERT_TRUE(store.Create("nodes", "n2", Node("n2")).ok());  // 2
    Json labelled = Node("n1");
    labelled["metadata"]["labels"] = {{"a", "b"}};
    ASSERT_TRUE(store.Replace("nodes", "n1", labelled, 1).ok());  // 3
    ASSERT_TRUE(store.Delete("nodes", "n2", 0).ok());             // 4
  }
  Journal::State state;
  auto journal = Journal::Open(path, &state);
  ASSERT_TRUE(journal.ok()) << journal.status();
  EXPECT_EQ(state.rv, 4);  // The delete's RV is not reused.
  ASSERT_EQ(state.objects.size(), 1u);
  EXPECT_EQ(state.objects[0].key, "n1");
  EXPECT_EQ(MetaString(state.objects[0].object, "resourceVersion"), "3");
  EXPECT_EQ(state.objects[0].object["metadata"]["labels"]["a"], "b");
  ObjectStore store({.journal = journal->get()});
  store.Restore(state);
  auto next = store.Create("nodes", "n3", Node("n3"));
  ASSERT_TRUE(next.ok());
  EXPECT_EQ((*next)->rv, 5);
  // Compacted: one put line for n1 and the counter, then the new put.
  std::string text = ReadFileOrEmpty(path);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 3) << text;
}

TEST(JournalTest, TornLastLineIsIgnoredButCorruptionIsNot) {
  std::string dir = MakeTempDir();
  std::string torn = dir + "/torn.jsonl";
  WriteFileOrDie(torn,
                 "{\"rv\":1,\"op\":\"put\",\"resource\":\"nodes\",\"key\":"
                 "\"n1\",\"object\":{\"metadata\":{\"name\":\"n1\","
                 "\"resourceVersion\":\"1\"}}}\n{\"rv\":2,\"op\":\"pu");
  Journal::State state;
  auto journal = Journal::Open(torn, &state);
  ASSERT_TRUE(journal.ok()) << journal.status();
  EXPECT_EQ(state.rv, 1);
  EXPECT_EQ(state.objects.size(), 1u);

  std::string bad = dir + "/bad.jsonl";
  WriteFileOrDie(bad, "garbage\n{\"rv\":1,\"op\":\"rv\"}\n");
  auto broken = Journal::Open(bad, &state);
  ASSERT_FALSE(broken.ok());
  EXPECT_EQ(broken.status().code(), StatusCode::kDataLoss);
}

}  // namespace
}  // namespace gcushare::apiserver
