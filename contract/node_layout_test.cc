#include "contract/node_layout.h"

#include <gtest/gtest.h>

namespace gcushare::contract {
namespace {

const char* kCards =
    R"([{"index":0,"uuid":"U0","memory":160,"healthy":true,"numa":0},)"
    R"({"index":1,"uuid":"U1","memory":160,"healthy":false,"numa":1}])";

NodeLayout Sample() {
  NodeLayout layout;
  layout.unit = *MemoryUnit::Parse("0.1");
  layout.cards = {{0, "U0", 160, true, 0}, {1, "U1", 160, false, 1}};
  return layout;
}

TEST(NodeLayoutTest, EncodesTheContractStrings) {
  nlohmann::json annotations = EncodeNodeLayout(Sample());
  EXPECT_EQ(annotations, nlohmann::json({{"enflame.com/gcu-memory-unit", "0.1"},
                                         {"enflame.com/gcu-devices", kCards}}));
}

TEST(NodeLayoutTest, RoundTrips) {
  auto decoded = DecodeNodeLayout(EncodeNodeLayout(Sample()));
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ(*decoded, Sample());
}

TEST(NodeLayoutTest, ReadsWhatThePluginWrote) {
  auto decoded =
      DecodeNodeLayout({{"enflame.com/gcu-memory-unit", "0.1"},
                        {"enflame.com/gcu-devices", kCards},
                        {"unrelated.example.com/key", "kept apart"}});
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ(decoded->unit.MibOfUnits(40), 4096u);
  ASSERT_EQ(decoded->cards.size(), 2u);
  EXPECT_EQ(decoded->cards[1].memory_units, 160u);
  EXPECT_FALSE(decoded->cards[1].healthy);
  EXPECT_EQ(decoded->cards[1].numa, 1);
}

struct BadCase {
  const char* what;
  nlohmann::json annotations;
  StatusCode code;
  const char* expected_substring;
};

TEST(NodeLayoutTest, MalformedInputIsAnErrorNamingTheAnnotation) {
  const BadCase cases[] = {
      {"null annotations", nullptr, StatusCode::kNotFound,
       "no GCU layout published"},
      {"annotations not an object", "x", StatusCode::kNotFound,
       "no GCU layout published"},
      {"nothing published", nlohmann::json::object(), StatusCode::kNotFound,
       "no GCU layout published"},
      {"both empty",
       {{"enflame.com/gcu-memory-unit", ""}, {"enflame.com/gcu-devices", ""}},
       StatusCode::kNotFound,
       "no GCU layout published"},
      {"unit missing",
       {{"enflame.com/gcu-devices", kCards}},
       StatusCode::kInvalidArgument,
       "node annotation enflame.com/gcu-memory-unit is missing"},
      {"unit not a string",
       {{"enflame.com/gcu-memory-unit", 1},
        {"enflame.com/gcu-devices", kCards}},
       StatusCode::kInvalidArgument,
       "gcu-memory-unit is missing"},
      {"unit unknown",
       {{"enflame.com/gcu-memory-unit", "0.5"},
        {"enflame.com/gcu-devices", kCards}},
       StatusCode::kInvalidArgument,
       "unit \"0.5\" is unknown (valid: 1, 0.1, 0.01, 0.001)"},
      {"devices missing",
       {{"enflame.com/gcu-memory-unit", "1"}},
       StatusCode::kInvalidArgument,
       "node annotation enflame.com/gcu-devices is missing"},
      {"devices not JSON",
       {{"enflame.com/gcu-memory-unit", "1"},
        {"enflame.com/gcu-devices", "[{"}},
       StatusCode::kInvalidArgument,
       "gcu-devices is malformed"},
      {"devices not a list",
       {{"enflame.com/gcu-memory-unit", "1"},
        {"enflame.com/gcu-devices", R"({"index":0})"}},
       StatusCode::kInvalidArgument,
       "gcu-devices is malformed"},
      {"card without memory",
       {{"enflame.com/gcu-memory-unit", "1"},
        {"enflame.com/gcu-devices", R"([{"index":0}])"}},
       StatusCode::kInvalidArgument,
       "memory missing"},
      {"card index repeated",
       {{"enflame.com/gcu-memory-unit", "1"},
        {"enflame.com/gcu-devices",
         R"([{"index":0,"memory":1},{"index":0,"memory":1}])"}},
       StatusCode::kInvalidArgument,
       "repeated"},
  };
  for (const BadCase& c : cases) {
    auto decoded = DecodeNodeLayout(c.annotations);
    ASSERT_FALSE(decoded.ok()) << c.what;
    EXPECT_EQ(decoded.status().code(), c.code) << c.what;
    EXPECT_NE(decoded.status().message().find(c.expected_substring),
              std::string::npos)
        << c.what << ": " << decoded.status().message();
  }
}

}  // namespace
}  // namespace gcushare::contract
