#include "nri-plugin/card_request.h"

#include <gtest/gtest.h>

namespace gcushare::nri {
namespace {

using nlohmann::json;

json Pod(json containers) {
  return {{"metadata", {{"name", "p"}, {"namespace", "default"}}},
          {"spec", {{"containers", containers}}}};
}

json Container(const std::string& name, const std::string& resource,
               const std::string& amount) {
  return {{"name", name}, {"resources", {{"limits", {{resource, amount}}}}}};
}

TEST(CardRequestTest, NoAssignmentMeansNothing) {
  auto r = ResolveContainerCards(json::object(), "main", nullptr);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->has_value());
}

TEST(CardRequestTest, MemoryPodFromAnnotationsAlone) {
  json a = {{"enflame.com/gcu-device-id", "1"},
            {"enflame.com/gcu-device-memory-request", "4"}};
  auto r = ResolveContainerCards(a, "main", nullptr);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_TRUE(r->has_value());
  EXPECT_EQ((*r)->cards, std::vector<uint32_t>{1});
  EXPECT_TRUE((*r)->shared);
  EXPECT_EQ((*r)->limit_units, 4u);
  EXPECT_FALSE((*r)->card_memory_units.has_value());
  EXPECT_FALSE((*r)->needs_pod);
}

TEST(CardRequestTest, ContainerEntriesDecide) {
  json a = {{"enflame.com/gcu-device-id", "2"},
            {"enflame.com/gcu-device-memory", "160"},
            {"enflame.com/gcu-device-memory-request", "40"},
            {"enflame.com/gcu-container-devices", R"({"main":[2]})"}};
  auto main = ResolveContainerCards(a, "main", nullptr);
  ASSERT_TRUE(main.ok());
  ASSERT_TRUE(main->has_value());
  EXPECT_EQ((*main)->limit_units, 40u);
  EXPECT_EQ((*main)->card_memory_units, 160u);
  auto sidecar = ResolveContainerCards(a, "sidecar", nullptr);
  ASSERT_TRUE(sidecar.ok());
  EXPECT_FALSE(sidecar->has_value());
}

TEST(CardRequestTest, WholeCards) {
  json a = {{"enflame.com/gcu-device-id", "2,3"},
            {"enflame.com/gcu-device-memory-request", "0"}};
  auto r = ResolveContainerCards(a, "main", nullptr);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)->cards, (std::vector<uint32_t>{2, 3}));
  EXPECT_FALSE((*r)->shared);
  EXPECT_FALSE((*r)->limit_units.has_value());
}

TEST(CardRequestTest, TwoSharedContainersNeedThePodSpec) {
  json a = {{"enflame.com/gcu-device-id", "0"},
            {"enflame.com/gcu-device-memory-request", "6"},
            {"enflame.com/gcu-container-devices", R"({"a":[0],"b":[0]})"}};
  auto r = ResolveContainerCards(a, "b", nullptr);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE((*r)->needs_pod);
  json pod = Pod({Container("a", "enflame.com/gcu-memory", "2"),
                  Container("b", "enflame.com/gcu-memory", "4")});
  PodSpec spec(pod);
  auto with_pod = ResolveContainerCards(a, "b", &spec);
  ASSERT_TRUE(with_pod.ok()) << with_pod.status();
  EXPECT_FALSE((*with_pod)->needs_pod);
  EXPECT_TRUE((*with_pod)->shared);
  EXPECT_EQ((*with_pod)->limit_units, 4u);
}

TEST(CardRequestTest, CompleteFromPodAnswersAsResolvingWithThePod) {
  json a = {{"enflame.com/gcu-device-id", "0"},
            {"enflame.com/gcu-device-memory-request", "6"},
            {"enflame.com/gcu-container-devices", R"({"a":[0],"b":[0]})"}};
  // b's own limit; a whole card after all; b not in the spec (an error).
  for (const json& pod :
       {Pod({Container("a", "enflame.com/gcu-memory", "2"),
             Container("b", "enflame.com/gcu-memory", "4")}),
        Pod({Container("b", "enflame.com/gcu-count", "1")}),
        Pod({Container("a", "enflame.com/gcu-memory", "2")})}) {
    auto r = ResolveContainerCards(a, "b", nullptr);
    ASSERT_TRUE(r.ok()) << r.status();
    ASSERT_TRUE((*r)->needs_pod);
    ContainerCards completed = **r;
    PodSpec spec(pod);
    Status s = CompleteFromPod(spec, "b", &completed);
    auto with_pod = ResolveContainerCards(a, "b", &spec);
    ASSERT_EQ(s.code(), with_pod.status().code()) << pod.dump();
    if (!s.ok()) {
      EXPECT_EQ(s.message(), with_pod.status().message());
      EXPECT_TRUE(completed.needs_pod);  // Unchanged.
      continue;
    }
    EXPECT_EQ(completed.cards, (*with_pod)->cards);
    EXPECT_EQ(completed.shared, (*with_pod)->shared) << pod.dump();
    EXPECT_EQ(completed.limit_units, (*with_pod)->limit_units) << pod.dump();
    EXPECT_EQ(completed.card_memory_units, (*with_pod)->card_memory_units);
    EXPECT_EQ(completed.unit, (*with_pod)->unit);
    EXPECT_FALSE(completed.needs_pod);
  }
}

TEST(CardRequestTest, PodSpecTellsWholeFromShared) {
  json a = {{"enflame.com/gcu-device-id", "5"},
            {"enflame.com/gcu-device-memory-request", "16"}};
  json pod = Pod({Container("main", "enflame.com/gcu-count", "1")});
  PodSpec spec(pod);
  auto r = ResolveContainerCards(a, "main", &spec);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE((*r)->shared);
}

TEST(CardRequestTest, PodUnitAnnotation) {
  json a = {{"enflame.com/gcu-device-id", "0"},
            {"enflame.com/gcu-memory-unit", "0.1"}};
  auto r = ResolveContainerCards(a, "main", nullptr);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)->unit, "0.1");
}

TEST(CardRequestTest, MalformedAnnotationsAreErrors) {
  json a = {{"enflame.com/gcu-device-id", "one"}};
  auto r = ResolveContainerCards(a, "main", nullptr);
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("gcu-device-id"), std::string::npos);
  json b = {{"enflame.com/gcu-device-id", "1"},
            {"enflame.com/gcu-container-devices", "{"}};
  EXPECT_EQ(ResolveContainerCards(b, "main", nullptr).status().code(),
            StatusCode::kInvalidArgument);
}

TEST(PodSpecTest, ComputesTheRequestOnce) {
  json pod = Pod({Container("a", "enflame.com/gcu-memory", "2"),
                  Container("b", "enflame.com/gcu-count", "1")});
  PodSpec spec(pod);
  const StatusOr<contract::PodRequest>& first = spec.Request();
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->memory_units, 2u);
  EXPECT_EQ(first->cards, 1u);
  // Kept, not computed again: a later change to the borrowed pod is not
  // seen (one creation asks of one state of the pod).
  pod["spec"]["containers"][0]["resources"]["limits"]
     ["enflame.com/gcu-memory"] = "5";
  EXPECT_EQ(&spec.Request(), &first);
  EXPECT_EQ(spec.Request()->memory_units, 2u);
  EXPECT_TRUE(spec.AsksForGcu("a"));
  EXPECT_TRUE(spec.AsksForGcu("b"));
  EXPECT_FALSE(spec.AsksForGcu("c"));
  auto b = spec.ForContainer("b");
  ASSERT_TRUE(b.ok());
  ASSERT_TRUE(b->has_value());
  EXPECT_EQ((*b)->cards, 1u);
  auto c = spec.ForContainer("c");
  ASSERT_TRUE(c.ok());
  EXPECT_FALSE(c->has_value());
  EXPECT_EQ(&spec.Request(), &first);
}

TEST(PodSpecTest, ASpecThatDoesNotParseAsksForNothingAndSaysWhy) {
  json pod = Pod({Container("a", "enflame.com/gcu-memory", "1.5")});
  PodSpec spec(pod);
  EXPECT_EQ(spec.Request().status().code(), StatusCode::kInvalidArgument);
  EXPECT_FALSE(spec.AsksForGcu("a"));
  EXPECT_EQ(spec.ForContainer("a").status().code(),
            StatusCode::kInvalidArgument);
  // Resolving with it fails the same way once the assignment names "a".
  json a = {{"enflame.com/gcu-device-id", "0"},
            {"enflame.com/gcu-device-memory-request", "2"}};
  EXPECT_EQ(ResolveContainerCards(a, "a", &spec).status().code(),
            StatusCode::kInvalidArgument);
}

}  // namespace

}  // namespace gcushare::nri
