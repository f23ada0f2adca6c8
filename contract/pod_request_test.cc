#include "contract/pod_request.h"

#include <gtest/gtest.h>

#include <utility>

namespace gcushare::contract {
namespace {

nlohmann::json Container(const std::string& name, const char* memory,
                         const char* cards = nullptr,
                         const char* field = "limits") {
  nlohmann::json c = {{"name", name}, {"image", "x"}};
  if (memory) c["resources"][field]["enflame.com/gcu-memory"] = memory;
  if (cards) c["resources"][field]["enflame.com/gcu-count"] = cards;
  return c;
}

nlohmann::json Pod(nlohmann::json containers,
                   nlohmann::json init = nlohmann::json()) {
  nlohmann::json pod = {{"metadata", {{"name", "p"}}},
                        {"spec", {{"containers", containers}}}};
  if (!init.is_null()) pod["spec"]["initContainers"] = std::move(init);
  return pod;
}

TEST(PodRequestTest, SingleContainer) {
  auto r = ComputePodRequest(Pod({Container("main", "4")}));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->memory_units, 4u);
  EXPECT_EQ(r->cards, 0u);
  ASSERT_EQ(r->containers.size(), 1u);
  EXPECT_EQ(r->containers[0].name, "main");
}

TEST(PodRequestTest, MultiContainerSumsAndListsOnlyAskers) {
  auto r = ComputePodRequest(
      Pod({Container("a", "4"), Container("b", nullptr), Container("c", "8")}));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->memory_units, 12u);
  ASSERT_EQ(r->containers.size(), 2u);
  EXPECT_EQ(r->containers[0].name, "a");
  EXPECT_EQ(r->containers[1].name, "c");
}

TEST(PodRequestTest, RequestsUsedWhenNoLimits) {
  auto r = ComputePodRequest(Pod({Container("a", "40", nullptr, "requests")}));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->memory_units, 40u);
}

TEST(PodRequestTest, InitContainerTakesMaxNotSum) {
  // max(sum(app)=6, max(init)=10) = 10.
  auto r = ComputePodRequest(Pod({Container("a", "2"), Container("b", "4")},
                                 {Container("init", "10")}));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->memory_units, 10u);
  ASSERT_EQ(r->containers.size(), 3u);
  EXPECT_TRUE(r->containers[0].init);
  // Smaller init: the app sum wins.
  r = ComputePodRequest(Pod({Container("a", "8")}, {Container("init", "3")}));
  EXPECT_EQ(r->memory_units, 8u);
}

TEST(PodRequestTest, SidecarsAddToAppsAndLaterInits) {
  nlohmann::json sidecar = Container("proxy", "2");
  sidecar["restartPolicy"] = "Always";
  // init order: sidecar(2), init(5) -> peak 7; running: 2 + app 3 = 5.
  auto r = ComputePodRequest(
      Pod({Container("app", "3")}, {sidecar, Container("setup", "5")}));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->memory_units, 7u);
  EXPECT_TRUE(r->containers[0].sidecar);
  // Init before the sidecar does not see it: peak max(5, 2) = 5; running 5.
  r = ComputePodRequest(
      Pod({Container("app", "4")}, {Container("setup", "5"), sidecar}));
  EXPECT_EQ(r->memory_units, 6u);
}

TEST(PodRequestTest, WholeCardsAndMixed) {
  auto r = ComputePodRequest(Pod({Container("a", nullptr, "2")}));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->cards, 2u);
  EXPECT_FALSE(r->Mixed());
  r = ComputePodRequest(
      Pod({Container("a", "4"), Container("b", nullptr, "1")}));
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->Mixed());
}

TEST(PodRequestTest, NoGcuRequest) {
  auto r = ComputePodRequest(Pod({Container("a", nullptr)}));
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->Wants());
  EXPECT_TRUE(r->containers.empty());
}

TEST(PodRequestTest, BadQuantityNamesContainerAndResource) {
  auto r = ComputePodRequest(Pod({Container("main", "1.5")}));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("container main enflame.com/gcu-memory"),
            std::string::npos)
      << r.status();
  EXPECT_FALSE(ComputePodRequest(nlohmann::json::array()).ok());
  EXPECT_FALSE(ComputePodRequest(nlohmann::json{{"spec", 3}}).ok());
}

// Sums at the 64-bit limit: exact up to 2^64-1, an error past it, never a
// wrapped sum (two containers of 2^63 used to ask for 0: no GCU at all).
TEST(PodRequestTest, SumsAtTheSixtyFourBitLimit) {
  auto r = ComputePodRequest(Pod({Container("a", "9223372036854775808"),
                                  Container("b", "9223372036854775807")}));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->memory_units, 18446744073709551615u);
  const nlohmann::json past[] = {
      Pod({Container("a", "9223372036854775808"),
           Container("b", "9223372036854775808")}),
      Pod({Container("a", "18446744073709551615"), Container("b", "1")}),
      Pod({Container("a", nullptr, "15Ei"), Container("b", nullptr, "1Ei")}),
  };
  for (const nlohmann::json& pod : past) {
    auto bad = ComputePodRequest(pod);
    ASSERT_FALSE(bad.ok()) << pod.dump();
    EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(bad.status().message().find("too large"), std::string::npos)
        << bad.status();
  }
  // A sidecar and a later init container, and a sidecar and the apps.
  nlohmann::json sidecar = Container("proxy", "18446744073709551615");
  sidecar["restartPolicy"] = "Always";
  EXPECT_FALSE(ComputePodRequest(
                   Pod({Container("app", "0")}, {sidecar, Container("i", "1")}))
                   .ok());
  EXPECT_FALSE(ComputePodRequest(Pod({Container("app", "1")}, {sidecar})).ok());
  // An init container alone at the limit is fine: init peaks are a max.
  r = ComputePodRequest(
      Pod({Container("app", "5")}, {Container("i", "18446744073709551615"),
                                    Container("j", "18446744073709551615")}));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->memory_units, 18446744073709551615u);
}

// Fields of another type than the API's read as absent: never an exception
// (nlohmann's .value() throws type_error on them).
TEST(PodRequestTest, FieldsOfAnotherTypeDoNotThrow) {
  nlohmann::json pod = Pod({Container("main", "4")});
  pod["spec"]["containers"][0]["name"] = 7;
  pod["spec"]["initContainers"] = nlohmann::json::array(
      {{{"name", nlohmann::json::array()}, {"restartPolicy", 1}}});
  StatusOr<PodRequest> r = InvalidArgumentError("not computed");
  EXPECT_NO_THROW(r = ComputePodRequest(pod));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->memory_units, 4u);
  ASSERT_EQ(r->containers.size(), 1u);
  EXPECT_EQ(r->containers[0].name, "");
}

}  // namespace
}  // namespace gcushare::contract
