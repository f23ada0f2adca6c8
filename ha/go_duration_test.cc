#include "ha/go_duration.h"

#include <gtest/gtest.h>

namespace gcushare::ha {
namespace {

using std::chrono::nanoseconds;

TEST(GoDurationTest, ParsesKubernetesFlagForms) {
  struct Case {
    const char* text;
    int64_t ns;
  };
  const Case cases[] = {
      {"0", 0},
      {"4s", 4000000000},
      {"500ms", 500000000},
      {"1.5s", 1500000000},
      {"1m30s", 90000000000},
      {"250us", 250000},
      {"10ns", 10},
      {"2h", 7200000000000},
      {"+3s", 3000000000},
      {".5s", 500000000},
  };
  for (const Case& c : cases) {
    auto parsed = ParseGoDuration(c.text);
    ASSERT_TRUE(parsed.ok()) << c.text << ": " << parsed.status().message();
    EXPECT_EQ(parsed->count(), c.ns) << c.text;
  }
}

TEST(GoDurationTest, RefusesBadText) {
  const char* bad[] = {"", "4", "s", "-1s", "4x", "1..5s", "ms5"};
  for (const char* text : bad) {
    EXPECT_FALSE(ParseGoDuration(text).ok()) << text;
  }
}

TEST(GoDurationTest, FormatsShortestAndReadsBack) {
  EXPECT_EQ(FormatGoDuration(nanoseconds(4000000000)), "4s");
  EXPECT_EQ(FormatGoDuration(nanoseconds(500000000)), "500ms");
  EXPECT_EQ(FormatGoDuration(nanoseconds(1500000000)), "1500ms");
  EXPECT_EQ(FormatGoDuration(nanoseconds(0)), "0s");
  for (int64_t ns : {int64_t{1}, int64_t{1000}, int64_t{3000000000}}) {
    auto back = ParseGoDuration(FormatGoDuration(nanoseconds(ns)));
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back->count(), ns);
  }
}

}  // namespace
}  // namespace gcushare::ha
