#include "tests/peers/dra_scheduler/capacity_policy.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace gcushare::dra_scheduler {
namespace {

DeviceCapacity Capacity(const std::string& json) {
  auto parsed = ParseDeviceCapacity(nlohmann::json::parse(json));
  EXPECT_TRUE(parsed.ok()) << parsed.status().message();
  return *parsed;
}

struct Case {
  const char* name;
  const char* capacity;
  std::optional<std::string> request;
  const char* consumed;
  bool violates;
};

// The rules of KEP-5075 ("consumedCapacity" and "requestPolicy").
TEST(CapacityPolicyTest, RoundsRequestsUpByThePolicy) {
  const char* gcu16 =
      R"({"value": "16Gi", "requestPolicy": {"default": "16Gi",
          "validRange": {"min": "1Gi", "step": "1Gi", "max": "16Gi"}}})";
  const char* min_step =
      R"({"value": "40Gi", "requestPolicy": {"default": "5Gi",
          "validRange": {"min": "5Gi", "step": "10Gi", "max": "40Gi"}}})";
  const char* tenth =
      R"({"value": "16Gi", "requestPolicy": {"default": "16Gi",
          "validRange": {"min": "0.1Gi", "step": "0.1Gi", "max": "16Gi"}}})";
  const char* values =
      R"({"value": "10", "requestPolicy": {"default": "2",
          "validValues": ["1", "2", "5"]}})";
  const char* no_policy = R"({"value": "16Gi"})";
  const char* no_default =
      R"({"value": "16Gi", "requestPolicy": {
          "validRange": {"min": "1Gi", "step": "1Gi"}}})";
  // The KEP's examples: a GPU with 80Gi shared in 10Gi chunks from 10Gi,
  // and a NIC's bandwidth in 8-byte chunks from 1Mi.
  const char* kep_gpu =
      R"({"value": "80Gi", "requestPolicy": {"default": "80Gi",
          "validRange": {"min": "10Gi", "step": "10Gi"}}})";
  const char* kep_nic =
      R"({"value": "10Gi", "requestPolicy": {"default": "1Mi",
          "validRange": {"min": "1Mi", "step": "8"}}})";
  const Case cases[] = {
      {"KEP gpu: a 10Gi share", kep_gpu, "10Gi", "10Gi", false},
      {"KEP gpu: 15Gi rounds to 20Gi", kep_gpu, "15Gi", "20Gi", false},
      {"KEP gpu: below min", kep_gpu, "5Gi", "10Gi", false},
      {"KEP gpu: no request is the whole device", kep_gpu, std::nullopt, "80Gi",
       false},
      {"KEP gpu: the full amount", kep_gpu, "80Gi", "80Gi", false},
      // The result takes the step's (decimal) format.
      {"KEP nic: 5Gi is on a chunk", kep_nic, "5Gi", "5368709120", false},
      {"KEP nic: one byte past min", kep_nic, "1048577", "1048584", false},
      {"KEP nic: no request takes the default", kep_nic, std::nullopt, "1Mi",
       false},
      {"exact multiple", gcu16, "4Gi", "4Gi", false},
      {"rounded up to the step", gcu16, "4.5Gi", "5Gi", false},
      {"one byte over", gcu16, "4294967297", "5Gi", false},
      {"below min becomes min", gcu16, "100Mi", "1Gi", false},
      {"no request takes the default", gcu16, std::nullopt, "16Gi", false},
      {"above max", gcu16, "17Gi", "17Gi", true},
      {"at max", gcu16, "16Gi", "16Gi", false},
      {"min plus steps", min_step, "6Gi", "15Gi", false},
      {"min itself", min_step, "5Gi", "5Gi", false},
      {"below min", min_step, "1Gi", "5Gi", false},
      {"past max after rounding", min_step, "36Gi", "45Gi", true},
      {"fractional step", tenth, "1Gi", "1Gi", false},
      {"fractional step rounds", tenth, "0.25Gi", "322122547200m", false},
      {"fractional min", tenth, "1Mi", "107374182400m", false},
      {"valid values: next value", values, "3", "5", false},
      {"valid values: exact", values, "1", "1", false},
      {"valid values: above all", values, "6", "6", true},
      {"valid values: default", values, std::nullopt, "2", false},
      {"no policy: the request", no_policy, "3Gi", "3Gi", false},
      {"no policy, no request: the full value", no_policy, std::nullopt, "16Gi",
       false},
      {"no default, no request: the full value", no_default, std::nullopt,
       "16Gi", false},
  };
  for (const Case& c : cases) {
    const DeviceCapacity capacity = Capacity(c.capacity);
    std::optional<Quantity> request;
    if (c.request.has_value()) request = *Quantity::Parse(*c.request);
    const Quantity consumed =
        ConsumedCapacity(request.has_value() ? &*request : nullptr, capacity);
    EXPECT_EQ(consumed.ToString(), c.consumed) << c.name;
    EXPECT_EQ(ViolatesPolicy(consumed, capacity), c.violates) << c.name;
  }
}

TEST(CapacityPolicyTest, ResultTakesTheStepFormat) {
  const DeviceCapacity capacity = Capacity(
      R"({"value": "16Gi", "requestPolicy": {"default": "16Gi",
          "validRange": {"min": "1Gi", "step": "1Gi"}}})");
  const Quantity request = *Quantity::Parse("3000000000");  // Decimal.
  EXPECT_EQ(ConsumedCapacity(&request, capacity).ToString(), "3Gi");
}

TEST(CapacityPolicyTest, RejectsMalformedCapacities) {
  for (const char* json :
       {R"({})", R"({"value": 16})", R"({"value": "16Gb"})",
        R"({"value": "16Gi", "requestPolicy": {"default": "x"}})",
        R"({"value": "16Gi", "requestPolicy": {"validRange": {}}})",
        R"({"value": "16Gi", "requestPolicy": {"validRange":
            {"min": "1Gi", "step": "0"}}})",
        R"({"value": "16Gi", "requestPolicy": {"validValues": [1]}})"}) {
    EXPECT_FALSE(ParseDeviceCapacity(nlohmann::json::parse(json)).ok()) << json;
  }
}

}  // namespace
}  // namespace gcushare::dra_scheduler
