#include "contract/annotations.h"

#include <gtest/gtest.h>

namespace gcushare::contract {
namespace {

CardAssignment Sample() {
  CardAssignment a;
  a.cards = {2};
  a.card_memory_units = 16;
  a.request_units = 12;
  a.assign_time_ns = 1700000000123456789;
  a.assigned = false;
  a.container_cards = {{"main", {2}}, {"side", {2}}};
  return a;
}

TEST(AssignmentTest, EncodesTheDesignStrings) {
  auto m = EncodeAssignment(Sample());
  EXPECT_EQ(m.at("enflame.com/gcu-device-id"), "2");
  EXPECT_EQ(m.at("enflame.com/gcu-device-memory"), "16");
  EXPECT_EQ(m.at("enflame.com/gcu-device-memory-request"), "12");
  EXPECT_EQ(m.at("enflame.com/gcu-device-assign-time"), "1700000000123456789");
  EXPECT_EQ(m.at("enflame.com/gcu-device-assigned"), "false");
  EXPECT_EQ(m.at("enflame.com/gcu-container-devices"),
            R"({"main":[2],"side":[2]})");
}

TEST(AssignmentTest, RoundTrips) {
  nlohmann::json annotations = EncodeAssignment(Sample());
  auto decoded = DecodeAssignment(annotations);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  ASSERT_TRUE(decoded->has_value());
  EXPECT_EQ(**decoded, Sample());
}

// gcu-device-memory and the pod's gcu-memory-unit are optional: absent
// reads as "not annotated", not as 0 or "" (the NRI plugin then asks the
// node's layout).
TEST(AssignmentTest, OptionalAnnotationsKeepTheirAbsence) {
  nlohmann::json annotations = EncodeAssignment(Sample());
  annotations.erase("enflame.com/gcu-device-memory");
  auto decoded = DecodeAssignment(annotations);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  ASSERT_TRUE(decoded->has_value());
  EXPECT_FALSE((*decoded)->card_memory_units.has_value());
  EXPECT_FALSE((*decoded)->memory_unit.has_value());
  EXPECT_EQ(EncodeAssignment(**decoded).count("enflame.com/gcu-device-memory"),
            0u);

  annotations["enflame.com/gcu-memory-unit"] = "0.5";
  decoded = DecodeAssignment(annotations);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ((*decoded)->memory_unit, std::optional<std::string>("0.5"));
  EXPECT_EQ(EncodeAssignment(**decoded).at("enflame.com/gcu-memory-unit"),
            "0.5");
}

TEST(AssignmentTest, AbsentMeansNotOurs) {
  auto decoded = DecodeAssignment(nlohmann::json{{"other", "x"}});
  ASSERT_TRUE(decoded.ok());
  EXPECT_FALSE(decoded->has_value());
  EXPECT_FALSE(DecodeAssignment(nlohmann::json())->has_value());
}

TEST(AssignmentTest, MalformedAnnotationsNamed) {
  const std::pair<nlohmann::json, const char*> cases[] = {
      {{{"enflame.com/gcu-device-id", "x"}}, "gcu-device-id"},
      {{{"enflame.com/gcu-device-id", "1,"}}, "gcu-device-id"},
      {{{"enflame.com/gcu-device-id", "-1"}}, "gcu-device-id"},
      {{{"enflame.com/gcu-device-id", "1"},
        {"enflame.com/gcu-device-assigned", "yes"}},
       "gcu-device-assigned"},
      {{{"enflame.com/gcu-device-id", "1"},
        {"enflame.com/gcu-device-memory", "16GiB"}},
       "gcu-device-memory"},
      {{{"enflame.com/gcu-device-id", "1"},
        {"enflame.com/gcu-container-devices", "{"}},
       "gcu-container-devices"},
      {{{"enflame.com/gcu-device-id", "1"},
        {"enflame.com/gcu-container-devices", R"({"a":["1"]})"}},
       "gcu-container-devices"},
      // Found by //fuzz:pod_annotations_fuzzer: past INT64_MAX the time
      // was read as a negative one (and written back unreadable).
      {{{"enflame.com/gcu-device-id", "1"},
        {"enflame.com/gcu-device-assign-time", "9223372036854775808"}},
       "gcu-device-assign-time"},
  };
  for (const auto& [annotations, name] : cases) {
    auto decoded = DecodeAssignment(annotations);
    ASSERT_FALSE(decoded.ok()) << annotations.dump();
    EXPECT_NE(decoded.status().message().find(name), std::string::npos)
        << decoded.status();
  }
}

TEST(AssignmentTest, CardsForContainer) {
  CardAssignment a = Sample();
  EXPECT_EQ(*CardsForContainer(a, "main"), std::vector<uint32_t>{2});
  EXPECT_EQ(CardsForContainer(a, "logger").status().code(),
            StatusCode::kNotFound);
  a.container_cards.clear();
  a.cards = {2, 3};
  EXPECT_EQ(*CardsForContainer(a, "anything"), (std::vector<uint32_t>{2, 3}));
}

TEST(CardListTest, JoinAndParse) {
  EXPECT_EQ(JoinCardList({2, 3}), "2,3");
  EXPECT_EQ(*ParseCardList("0"), std::vector<uint32_t>{0});
  EXPECT_EQ(*ParseCardList("2,3"), (std::vector<uint32_t>{2, 3}));
  for (const char* bad : {"", ",", "1,,2", " 1", "+1", "99999999999"}) {
    EXPECT_FALSE(ParseCardList(bad).ok()) << bad;
  }
}

TEST(NodeCardsTest, EncodesDesignShape) {
  std::vector<NodeCard> cards = {{0, "GCU-1", 160, true, 0},
                                 {1, "GCU-2", 160, false, std::nullopt}};
  EXPECT_EQ(
      EncodeNodeCards(cards),
      R"([{"index":0,"uuid":"GCU-1","memory":160,"healthy":true,"numa":0},)"
      R"({"index":1,"uuid":"GCU-2","memory":160,"healthy":false}])");
  auto decoded = DecodeNodeCards(EncodeNodeCards(cards));
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ(*decoded, cards);
}

TEST(NodeCardsTest, DesignExampleParses) {
  auto decoded = DecodeNodeCards(
      R"([{"index":0,"uuid":"...","memory":160,"healthy":true,"numa":0}])");
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ((*decoded)[0].memory_units, 160u);
}

TEST(NodeCardsTest, Malformed) {
  for (const char* bad :
       {"", "{}", "[1]", R"([{"memory":1}])", R"([{"index":0}])",
        R"([{"index":-1,"memory":1}])", R"([{"index":0,"memory":-4}])",
        R"([{"index":0,"memory":1,"healthy":"yes"}])",
        R"([{"index":0,"memory":1},{"index":0,"memory":1}])"}) {
    auto decoded = DecodeNodeCards(bad);
    ASSERT_FALSE(decoded.ok()) << bad;
    EXPECT_NE(decoded.status().message().find("enflame.com/gcu-devices"),
              std::string::npos);
  }
}

TEST(AssignedMarkTest, TheMarkReadsAsAssigned) {
  nlohmann::json annotations = EncodeAssignment(Sample());
  EXPECT_FALSE(HasAssignedMark(annotations));
  annotations.update(EncodeAssignedMark());
  EXPECT_TRUE(HasAssignedMark(annotations));
  auto decoded = DecodeAssignment(annotations);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_TRUE((*decoded)->assigned);
  // The writers' form (EncodeAssignment) and the mark agree.
  CardAssignment a = Sample();
  a.assigned = true;
  EXPECT_EQ(EncodeAssignment(a).at("enflame.com/gcu-device-assigned"),
            EncodeAssignedMark()["enflame.com/gcu-device-assigned"]);
}

TEST(AssignedMarkTest, AnythingElseIsNoMark) {
  for (const nlohmann::json& annotations :
       {nlohmann::json(), nlohmann::json("x"), nlohmann::json::object(),
        nlohmann::json{{"enflame.com/gcu-device-assigned", "false"}},
        nlohmann::json{{"enflame.com/gcu-device-assigned", true}},
        nlohmann::json{{"enflame.com/gcu-device-assigned", "True"}}}) {
    EXPECT_FALSE(HasAssignedMark(annotations)) << annotations.dump();
  }
}

}  // namespace
}  // namespace gcushare::contract
