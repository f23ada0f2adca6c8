#include "tests/peers/apiserver/label_selector.h"

#include <gtest/gtest.h>

namespace gcushare::apiserver {
namespace {

struct MatchCase {
  const char* selector;
  const char* labels;  // JSON object, or "null".
  bool matches;
};

class LabelSelectorMatchTest : public ::testing::TestWithParam<MatchCase> {};

TEST_P(LabelSelectorMatchTest, Matches) {
  const MatchCase& c = GetParam();
  auto selector = LabelSelector::Parse(c.selector);
  ASSERT_TRUE(selector.ok()) << c.selector << ": " << selector.status();
  auto labels = ParseJson(c.labels);
  ASSERT_TRUE(labels.ok());
  EXPECT_EQ(selector->Matches(*labels), c.matches)
      << c.selector << " on " << c.labels;
}

INSTANTIATE_TEST_SUITE_P(
    Table, LabelSelectorMatchTest,
    ::testing::Values(
        MatchCase{"", "null", true}, MatchCase{"", R"({"a":"b"})", true},
        MatchCase{"app=foo", R"({"app":"foo"})", true},
        MatchCase{"app=foo", R"({"app":"bar"})", false},
        MatchCase{"app=foo", "null", false},
        MatchCase{"app==foo", R"({"app":"foo"})", true},
        MatchCase{"app!=foo", R"({"app":"bar"})", true},
        MatchCase{"app!=foo", R"({"app":"foo"})", false},
        // != and notin match objects without the key.
        MatchCase{"app!=foo", "{}", true},
        MatchCase{"tier notin (fe,be)", "{}", true},
        MatchCase{"tier notin (fe,be)", R"({"tier":"fe"})", false},
        MatchCase{"tier notin (fe,be)", R"({"tier":"db"})", true},
        MatchCase{"tier in (fe,be)", R"({"tier":"be"})", true},
        MatchCase{"tier in (fe,be)", R"({"tier":"db"})", false},
        MatchCase{"tier in (fe,be)", "{}", false},
        MatchCase{"tier in ( fe , be )", R"({"tier":"fe"})", true},
        MatchCase{"gpu", R"({"gpu":""})", true},
        MatchCase{"gpu", R"({"cpu":"x"})", false},
        MatchCase{"!gpu", R"({"cpu":"x"})", true},
        MatchCase{"!gpu", R"({"gpu":"1"})", false},
        MatchCase{"app=foo,tier!=fe", R"({"app":"foo","tier":"be"})", true},
        MatchCase{"app=foo,tier!=fe", R"({"app":"foo","tier":"fe"})", false},
        MatchCase{" app = foo , !gone ", R"({"app":"foo"})", true},
        MatchCase{"enflame.com/gcushare=true",
                  R"({"enflame.com/gcushare":"true"})", true},
        MatchCase{"empty=", R"({"empty":""})", true},
        MatchCase{"empty=", R"({"empty":"x"})", false},
        MatchCase{"size>3", R"({"size":"4"})", true},
        MatchCase{"size>3", R"({"size":"3"})", false},
        MatchCase{"size<3", R"({"size":"2"})", true},
        MatchCase{"size<3", "{}", false}));

class LabelSelectorErrorTest : public ::testing::TestWithParam<const char*> {};

TEST_P(LabelSelectorErrorTest, Rejected) {
  auto selector = LabelSelector::Parse(GetParam());
  ASSERT_FALSE(selector.ok()) << GetParam();
  EXPECT_EQ(selector.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(selector.status().message().find("unable to parse"),
            std::string::npos)
      << selector.status();
}

INSTANTIATE_TEST_SUITE_P(Table, LabelSelectorErrorTest,
                         ::testing::Values("=foo", "app in fe", "app in (fe",
                                           "app foo", "!app=foo", "a=b,,c=d",
                                           "-bad-key-=x", "app=-bad-", "size>x",
                                           "Bad/key=x"));

TEST(LabelSelectorTest, KeepsRequirementsInOrder) {
  auto s = LabelSelector::Parse("app=,b in (c,d),!e");
  ASSERT_TRUE(s.ok()) << s.status();
  ASSERT_EQ(s->requirements().size(), 3u);
  EXPECT_EQ(s->requirements()[0].key, "app");
  EXPECT_EQ(s->requirements()[0].values, std::vector<std::string>{""});
  EXPECT_EQ(s->requirements()[1].op, LabelSelector::Op::kIn);
  EXPECT_EQ(s->requirements()[1].values, (std::vector<std::string>{"c", "d"}));
  EXPECT_EQ(s->requirements()[2].op, LabelSelector::Op::kDoesNotExist);
}

}  // namespace
}  // namespace gcushare::apiserver
