#include "placement/node_view.h"

#include <gtest/gtest.h>

namespace gcushare::placement {
namespace {

nlohmann::json Node(nlohmann::json labels, nlohmann::json annotations) {
  return {{"metadata",
           {{"name", "n1"}, {"labels", labels}, {"annotations", annotations}}}};
}

const char* kCards =
    R"([{"index":0,"uuid":"U0","memory":160,"healthy":true,"numa":0},)"
    R"({"index":1,"uuid":"U1","memory":160,"healthy":false,"numa":1}])";

TEST(NodeViewTest, ReadsUnitAndCards) {
  NodeView view = ReadNodeView(Node({{"enflame.com/gcushare", "true"}},
                                    {{"enflame.com/gcu-memory-unit", "0.1"},
                                     {"enflame.com/gcu-devices", kCards}}));
  ASSERT_TRUE(view.usable()) << view.problem;
  EXPECT_EQ(view.name, "n1");
  EXPECT_EQ(view.unit_text, "0.1");
  EXPECT_EQ(view.layout.unit.MibOfUnits(40), 4096u);
  ASSERT_EQ(view.layout.cards.size(), 2u);
  EXPECT_EQ(view.layout.cards[1].memory_units, 160u);
  EXPECT_FALSE(view.layout.cards[1].healthy);
}

struct ProblemCase {
  const char* what;
  nlohmann::json labels;
  nlohmann::json annotations;
  const char* expected_substring;
};

TEST(NodeViewTest, EachProblemIsNamed) {
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
    NodeView view = ReadNodeView(Node(c.labels, c.annotations));
    EXPECT_FALSE(view.usable()) << c.what;
    EXPECT_NE(view.problem.find(c.expected_substring), std::string::npos)
        << c.what << ": " << view.problem;
  }
}

TEST(NodeViewTest, NotAnObject) {
  EXPECT_FALSE(ReadNodeView(nlohmann::json("x")).usable());
}

TEST(NodeViewTest, FieldsOfTheWrongTypeReadAsAbsent) {
  NodeView view = ReadNodeView(
      {{"metadata",
        {{"name", 5}, {"labels", {{"enflame.com/gcushare", true}}}}}});
  EXPECT_EQ(view.name, "");
  EXPECT_EQ(view.problem, NotSharingNodeReason());
}

}  // namespace
}  // namespace gcushare::placement
