#include "extender/filter_record.h"

#include <gtest/gtest.h>

#include "base/testing/fake_clock.h"

namespace gcushare::extender {
namespace {

using std::chrono::seconds;

TEST(FilterRecordTest, PassesOnlyTheNodesOfTheLatestFilter) {
  base::FakeClock clock;
  FilterRecord record(&clock, 10, seconds(60));
  EXPECT_FALSE(record.Passed("u1", "n1"));
  record.Record("u1", {"n1", "n2"});
  EXPECT_TRUE(record.Passed("u1", "n1"));
  EXPECT_TRUE(record.Passed("u1", "n2"));
  EXPECT_FALSE(record.Passed("u1", "n3"));
  EXPECT_FALSE(record.Passed("u2", "n1"));
  record.Record("u1", {"n3"});  // A new cycle judges afresh.
  EXPECT_FALSE(record.Passed("u1", "n1"));
  EXPECT_TRUE(record.Passed("u1", "n3"));
  EXPECT_EQ(record.size(), 1u);
}

TEST(FilterRecordTest, EntriesExpire) {
  base::FakeClock clock;
  FilterRecord record(&clock, 10, seconds(60));
  record.Record("u1", {"n1"});
  clock.Advance(seconds(60));
  EXPECT_TRUE(record.Passed("u1", "n1"));
  clock.Advance(seconds(1));
  EXPECT_FALSE(record.Passed("u1", "n1"));
  record.Record("u2", {"n1"});  // Trims the expired one.
  EXPECT_EQ(record.size(), 1u);
}

TEST(FilterRecordTest, OldestGoFirstPastCapacity) {
  base::FakeClock clock;
  FilterRecord record(&clock, 2, seconds(60));
  record.Record("u1", {"n"});
  clock.Advance(seconds(1));
  record.Record("u2", {"n"});
  clock.Advance(seconds(1));
  record.Record("u1", {"n"});  // Refreshed: now newer than u2.
  clock.Advance(seconds(1));
  record.Record("u3", {"n"});
  EXPECT_EQ(record.size(), 2u);
  EXPECT_TRUE(record.Passed("u1", "n"));
  EXPECT_FALSE(record.Passed("u2", "n"));
  EXPECT_TRUE(record.Passed("u3", "n"));
}

TEST(FilterRecordTest, EmptyUidIsNotRecorded) {
  base::FakeClock clock;
  FilterRecord record(&clock, 2, seconds(60));
  record.Record("", {"n"});
  EXPECT_FALSE(record.Passed("", "n"));
  EXPECT_EQ(record.size(), 0u);
}

}  // namespace
}  // namespace gcushare::extender
