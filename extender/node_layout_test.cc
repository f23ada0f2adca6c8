#include "extender/node_layout.h"

#include <gtest/gtest.h>

namespace gcushare::extender {
namespace {

nlohmann::json Node(nlohmann::json labels, nlohmann::json annotations) {
  return {{"metadata",
           {{"name", "n1"}, {"labels", labels}, {"annotations", annotations}}}};
}

const char* kCards =
    R"([{"index":0,"uuid":"U0","memory":160,"healthy":true,"numa":0},)"
    R"({"index":1,"uuid":"U1","memory":160,"healthy":false,"numa":1}])";

TEST(NodeLayoutTest, ReadsUnitAndCards) {
  NodeLayout layout =
      ParseNodeLayout(Node({{"enflame.com/gcushare", "true"}},
                           {{"enflame.com/gcu-memory-unit", "0.1"},
                            {"enflame.com/gcu-devices", kCards}}));
  ASSERT_TRUE(layout.usable()) << layout.problem;
  EXPECT_EQ(layout.name, "n1");
  EXPECT_EQ(layout.unit_text, "0.1");
  EXPECT_EQ(layout.unit.MibOfUnits(40), 4096u);
  ASSERT_EQ(layout.cards.size(), 2u);
  EXPECT_EQ(layout.cards[1].memory_units, 160u);
  EXPECT_FALSE(layout.cards[1].healthy);
}

struct ProblemCase {
  const char* what;
  nlohmann::json labels;
  nlohmann::json annotations;
  const char* expected_substring;
};

TEST(NodeLayoutTest, EachProblemIsNamed) {
  const nlohmann::json sharing = {{"enflame.com/gcushare", "true"}};
  const ProblemCase cases[] = {
      {"no label",
       nlohmann::json::object(),
       {{"enflame.com/gcu-memory-unit", "1"},
        {"enflame.com/gcu-devices", kCards}},
       "not a GCUShare node"},
      {"label false",
       {{"enflame.com/gcushare", "false"}},
       nlohmann::json::object(),
       "not a GCUShare node"},
      {"nothing published", sharing, nlohmann::json::object(),
       "no GCU layout published"},
      {"unit missing",
       sharing,
       {{"enflame.com/gcu-devices", kCards}},
       "gcu-memory-unit is missing"},
      {"unit unknown",
       sharing,
       {{"enflame.com/gcu-memory-unit", "0.5"},
        {"enflame.com/gcu-devices", kCards}},
       "unit \"0.5\" is unknown (valid: 1, 0.1, 0.01, 0.001)"},
      {"devices missing",
       sharing,
       {{"enflame.com/gcu-memory-unit", "1"}},
       "gcu-devices is missing"},
      {"devices malformed",
       sharing,
       {{"enflame.com/gcu-memory-unit", "1"},
        {"enflame.com/gcu-devices", "[{"}},
       "gcu-devices is malformed"},
  };
  for (const ProblemCase& c : cases) {
    NodeLayout layout = ParseNodeLayout(Node(c.labels, c.annotations));
    EXPECT_FALSE(layout.usable()) << c.what;
    EXPECT_NE(layout.problem.find(c.expected_substring), std::string::npos)
        << c.what << ": " << layout.problem;
  }
}

TEST(NodeLayoutTest, NotAnObject) {
  EXPECT_FALSE(ParseNodeLayout(nlohmann::json("x")).usable());
}

}  // namespace
}  // namespace gcushare::extender
