#include "tests/e2e/bind_journal.h"

#include <gtest/gtest.h>

#include "testing/files.h"

namespace gcushare::e2e {
namespace {

std::string Put(int rv, const std::string& key, const std::string& node) {
  return R"({"rv":)" + std::to_string(rv) +
         R"(,"op":"put","resource":"pods","key":")" + key +
         R"(","object":{"spec":{"nodeName":")" + node + "\"}}}\n";
}

TEST(BindJournalTest, CountsCommitsAcrossACompaction) {
  const std::string dir = testing::MakeTempDir();
  // Before the crash: a created, then bound; b created; a torn last line.
  testing::WriteFileOrDie(dir + "/crashed",
                          Put(1, "ns/a", "") + Put(2, "ns/b", "") +
                              Put(3, "ns/a", "n1") + Put(4, "ns/a", "n1") +
                              R"({"rv":5,"op":"put","reso)");
  // After the restart: the compacted puts, then b bound.
  testing::WriteFileOrDie(
      dir + "/live",
      Put(3, "ns/a", "n1") + Put(2, "ns/b", "") + Put(6, "ns/b", "n1"));
  auto commits = CountBindCommits({dir + "/crashed", dir + "/live"});
  ASSERT_TRUE(commits.ok()) << commits.status();
  EXPECT_EQ((*commits)["ns/a"], 1);
  EXPECT_EQ((*commits)["ns/b"], 1);
}

TEST(BindJournalTest, ABindingToAnotherNodeCountsTwice) {
  const std::string dir = testing::MakeTempDir();
  testing::WriteFileOrDie(
      dir + "/j",
      Put(1, "ns/a", "n1") + Put(2, "ns/a", "n2") + Put(3, "ns/c", "n1"));
  auto commits = CountBindCommits({dir + "/j"});
  ASSERT_TRUE(commits.ok());
  EXPECT_EQ((*commits)["ns/a"], 2);
  EXPECT_EQ((*commits)["ns/c"], 1);
}

TEST(BindJournalTest, MissingFileIsAnError) {
  EXPECT_EQ(CountBindCommits({"/nonexistent/journal"}).status().code(),
            StatusCode::kNotFound);
}

}  // namespace
}  // namespace gcushare::e2e
