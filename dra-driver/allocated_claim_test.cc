#include "dra-driver/allocated_claim.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "dra-driver/memory_quantity.h"

namespace gcushare::dra {
namespace {

using nlohmann::json;

constexpr uint64_t kGiMilli = (uint64_t{1} << 30) * 1000;

json Result(std::string device, std::string request = "gcu",
            std::string pool = "node-1",
            std::string driver = "gcu.enflame.com") {
  return {{"request", request},
          {"driver", driver},
          {"pool", pool},
          {"device", device}};
}

json Claim(json results, std::string uid = "uid-1") {
  return {{"apiVersion", "resource.k8s.io/v1"},
          {"kind", "ResourceClaim"},
          {"metadata", {{"name", "c1"}, {"namespace", "demo"}, {"uid", uid}}},
          {"status",
           {{"allocation", {{"devices", {{"results", results}}}}},
            {"reservedFor",
             {{{"resource", "pods"}, {"name", "p1"}, {"uid", "pod-uid"}}}}}}};
}

StatusOr<AllocatedClaim> Parse(const json& claim) {
  return ParseAllocatedClaim(claim, "demo", "c1", "uid-1", "node-1");
}

TEST(AllocatedClaimTest, ParsesOurResults) {
  json shared = Result("gcu-2");
  shared["shareID"] = "6f1c8a39-2b4e-4d1a-9c3e-7f2b1a0d9e8c";
  shared["consumedCapacity"] = {{"memory", "4Gi"}};
  json qualified = Result("gcu-3", "other");
  qualified["shareID"] = "s2";
  qualified["consumedCapacity"] = {{"gcu.enflame.com/memory", "107374182400m"},
                                   {"gcu.enflame.com/cores", "1"}};
  json claim = Claim({Result("gpu-0", "x", "elsewhere", "gpu.example.com"),
                      Result("gcu-0"), shared, qualified});
  StatusOr<AllocatedClaim> parsed = Parse(claim);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->ns, "demo");
  EXPECT_EQ(parsed->name, "c1");
  EXPECT_EQ(parsed->uid, "uid-1");
  ASSERT_EQ(parsed->results.size(), 3u);  // The other driver's is ignored.
  EXPECT_EQ(parsed->results[0],
            (AllocatedResult{"gcu", "node-1", "gcu-0", 0, {}, {}}));
  EXPECT_EQ(
      parsed->results[1],
      (AllocatedResult{"gcu", "node-1", "gcu-2", 2,
                       "6f1c8a39-2b4e-4d1a-9c3e-7f2b1a0d9e8c", 4 * kGiMilli}));
  EXPECT_EQ(parsed->results[2], (AllocatedResult{"other", "node-1", "gcu-3", 3,
                                                 "s2", 107374182400}));
  ASSERT_EQ(parsed->reserved_for.size(), 1u);
  EXPECT_EQ(parsed->reserved_for[0],
            (ClaimConsumer{"", "pods", "p1", "pod-uid"}));
}

TEST(AllocatedClaimTest, NoResultsOfOursIsEmpty) {
  StatusOr<AllocatedClaim> parsed =
      Parse(Claim({Result("gpu-0", "x", "elsewhere", "gpu.example.com")}));
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_TRUE(parsed->results.empty());
}

TEST(AllocatedClaimTest, RefusesWithClearErrors) {
  json over = Result("gcu-1");
  over["consumedCapacity"] = {{"memory", "4Gi"},
                              {"gcu.enflame.com/memory", "4Gi"}};
  json bad_quantity = Result("gcu-1");
  bad_quantity["consumedCapacity"] = {{"memory", "lots"}};
  json bad_share = Result("gcu-1");
  bad_share["shareID"] = "../../etc";
  json many = json::array();
  for (int i = 0; i < 33; ++i) many.push_back(Result("gcu-0"));
  json unallocated = Claim(json::array());
  unallocated["status"].erase("allocation");
  json no_device = Result("gcu-0");
  no_device.erase("device");
  json wrong_name = Claim(json::array());
  wrong_name["metadata"]["name"] = "c2";

  struct Case {
    std::string label;
    json claim;
    StatusCode code;
    std::string why;
  } cases[] = {
      {"uid mismatch", Claim(json::array(), "uid-2"),
       StatusCode::kFailedPrecondition, "uid \"uid-2\""},
      {"not allocated", unallocated, StatusCode::kFailedPrecondition,
       "not allocated"},
      {"other pool", Claim({Result("gcu-0", "gcu", "node-2")}),
       StatusCode::kFailedPrecondition, "pool \"node-2\""},
      {"bad device", Claim({Result("gcu-01")}), StatusCode::kInvalidArgument,
       "results[0].device"},
      {"both memory names", Claim({over}), StatusCode::kInvalidArgument,
       "both"},
      {"bad quantity", Claim({bad_quantity}), StatusCode::kInvalidArgument,
       "\"lots\""},
      {"bad share id", Claim({bad_share}), StatusCode::kInvalidArgument,
       "shareID"},
      {"too many results", Claim(many), StatusCode::kInvalidArgument,
       "more than 32"},
      {"missing device", Claim({no_device}), StatusCode::kInvalidArgument,
       "device is missing"},
      {"other name", wrong_name, StatusCode::kFailedPrecondition,
       "metadata.name"},
      {"not an object", json::array(), StatusCode::kInvalidArgument,
       "not a JSON object"},
      {"results not a list", Claim(json::object({{"a", 1}})),
       StatusCode::kInvalidArgument, "not a list"},
  };
  for (const Case& c : cases) {
    StatusOr<AllocatedClaim> parsed = Parse(c.claim);
    ASSERT_FALSE(parsed.ok()) << c.label;
    EXPECT_EQ(parsed.status().code(), c.code) << c.label;
    EXPECT_NE(parsed.status().message().find(c.why), std::string::npos)
        << c.label << ": " << parsed.status();
    EXPECT_EQ(parsed.status().message().rfind("claim demo/c1 (uid uid-1): ", 0),
              0u)
        << c.label << ": " << parsed.status();
  }
}

TEST(AllocatedClaimTest, ParsesText) {
  StatusOr<AllocatedClaim> parsed = ParseAllocatedClaimJson(
      Claim({Result("gcu-5")}).dump(), "demo", "c1", "uid-1", "node-1");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->results[0].card_index, 5u);
  StatusOr<AllocatedClaim> bad =
      ParseAllocatedClaimJson("{\"metadata\": ", "demo", "c1", "uid-1", "n");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("claim demo/c1"), std::string::npos);
  StatusOr<AllocatedClaim> deep =
      ParseAllocatedClaimJson(std::string(500, '[') + std::string(500, ']'),
                              "demo", "c1", "uid-1", "n");
  EXPECT_FALSE(deep.ok());
}

}  // namespace
}  // namespace gcushare::dra

namespace gcushare::dra {
namespace {

TEST(AllocatedClaimTest, BaseRequestName) {
  EXPECT_EQ(BaseRequestName("gcu"), "gcu");
  EXPECT_EQ(BaseRequestName("gcu/small"), "gcu");
  EXPECT_EQ(BaseRequestName(""), "");
}

}  // namespace
}  // namespace gcushare::dra
