#include "tests/peers/dra_scheduler/allocator.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace gcushare::dra_scheduler {
namespace {

using nlohmann::json;

constexpr char kDriver[] = "gcu.enflame.com";

// A GCU as the driver publishes it: 16Gi, shareable by 1Gi steps.
json Gcu(int index, bool shared = true, const std::string& memory = "16Gi") {
  json device = {
      {"name", "gcu-" + std::to_string(index)},
      {"attributes",
       {{"index", {{"int", index}}}, {"model", {{"string", "S60"}}}}},
      {"capacity", {{"memory", {{"value", memory}}}}}};
  if (shared) {
    device["allowMultipleAllocations"] = true;
    device["capacity"]["memory"]["requestPolicy"] = {
        {"default", memory},
        {"validRange", {{"min", "1Gi"}, {"step", "1Gi"}, {"max", memory}}}};
  }
  return device;
}

json Slice(const std::string& name, const std::string& node,
           std::vector<json> devices, int generation = 1, int count = 1,
           const std::string& pool = "") {
  return {{"metadata", {{"name", name}}},
          {"spec",
           {{"driver", kDriver},
            {"nodeName", node},
            {"pool",
             {{"name", pool.empty() ? node : pool},
              {"generation", generation},
              {"resourceSliceCount", count}}},
            {"devices", devices}}}};
}

json Class(
    const std::string& name,
    const std::string& expression = "device.driver == \"gcu.enflame.com\"") {
  return {{"metadata", {{"name", name}}},
          {"spec", {{"selectors", {{{"cel", {{"expression", expression}}}}}}}}};
}

json Request(const std::string& name, const std::string& memory = "",
             int count = 1) {
  json exactly = {{"deviceClassName", "gcu.enflame.com"},
                  {"allocationMode", "ExactCount"},
                  {"count", count}};
  if (!memory.empty())
    exactly["capacity"] = {{"requests", {{"memory", memory}}}};
  return {{"name", name}, {"exactly", exactly}};
}

json Claim(const std::string& name, std::vector<json> requests) {
  return {{"metadata", {{"name", name}, {"namespace", "demo"}}},
          {"spec", {{"devices", {{"requests", requests}}}}}};
}

// An existing claim holding `memory` of `device` as a share.
json Holding(const std::string& device, const std::string& memory) {
  static int n = 0;
  json result = {{"request", "gcu"},
                 {"driver", kDriver},
                 {"pool", "node-a"},
                 {"device", device}};
  if (!memory.empty()) {
    result["shareID"] = "held-" + std::to_string(++n);
    result["consumedCapacity"] = {{"memory", memory}};
  }
  json claim = Claim("held", {Request("gcu")});
  claim["status"] = {{"allocation", {{"devices", {{"results", {result}}}}}}};
  return claim;
}

json Node(const std::string& name) {
  return {{"metadata", {{"name", name}, {"labels", {{"zone", "z1"}}}}}};
}

class AllocatorTest : public ::testing::Test {
 protected:
  StatusOr<AllocationOutcome> Run(std::vector<json> slices,
                                  const std::vector<json>& claims,
                                  const std::vector<json>& existing = {},
                                  std::vector<json> classes = {
                                      Class("gcu.enflame.com")}) {
    auto allocated = GatherAllocatedDevices(existing);
    EXPECT_TRUE(allocated.ok()) << allocated.status().message();
    Allocator allocator(std::move(slices), std::move(classes), *allocated,
                        &share_ids_);
    return allocator.Allocate(Node("node-a"), claims);
  }

  SequentialShareIds share_ids_;
};

TEST_F(AllocatorTest, SharedDeviceGetsRoundedConsumedCapacityAndAShareId) {
  auto outcome = Run({Slice("s", "node-a", {Gcu(0)})},
                     {Claim("c", {Request("gcu", "4.5Gi")})});
  ASSERT_TRUE(outcome.ok()) << outcome.status().message();
  ASSERT_TRUE(outcome->fits);
  const json want = json::parse(R"({
    "devices": {"results": [{
      "request": "gcu", "driver": "gcu.enflame.com", "pool": "node-a",
      "device": "gcu-0", "shareID": "00000000-0000-4000-8000-000000000001",
      "consumedCapacity": {"memory": "5Gi"}}]},
    "nodeSelector": {"nodeSelectorTerms": [{"matchFields": [
      {"key": "metadata.name", "operator": "In", "values": ["node-a"]}]}]}
  })");
  EXPECT_EQ(outcome->allocations.at(0), want) << outcome->allocations[0].dump();
}

TEST_F(AllocatorTest, NoCapacityRequestTakesTheDefaultWholeCard) {
  auto outcome =
      Run({Slice("s", "node-a", {Gcu(0)})}, {Claim("c", {Request("gcu")})});
  ASSERT_TRUE(outcome.ok() && outcome->fits);
  EXPECT_EQ(outcome->allocations[0]["devices"]["results"][0]["consumedCapacity"]
                                ["memory"],
            "16Gi");
  // And then the card is full for anyone else.
  auto next =
      Run({Slice("s", "node-a", {Gcu(0)})},
          {Claim("d", {Request("gcu", "1Gi")})}, {Holding("gcu-0", "16Gi")});
  ASSERT_TRUE(next.ok());
  EXPECT_FALSE(next->fits);
}

TEST_F(AllocatorTest, SumOfSharesStaysWithinTheCard) {
  const std::vector<json> slices = {Slice("s", "node-a", {Gcu(0)})};
  // 4 + 8 held, 4 more fits exactly.
  auto fits = Run(slices, {Claim("c", {Request("gcu", "4Gi")})},
                  {Holding("gcu-0", "4Gi"), Holding("gcu-0", "8Gi")});
  ASSERT_TRUE(fits.ok());
  EXPECT_TRUE(fits->fits);
  // 4 + 8 + 4 held: +1Gi does not.
  auto full = Run(slices, {Claim("c", {Request("gcu", "1Gi")})},
                  {Holding("gcu-0", "4Gi"), Holding("gcu-0", "8Gi"),
                   Holding("gcu-0", "4Gi")});
  ASSERT_TRUE(full.ok());
  EXPECT_FALSE(full->fits);
  // Within one pass: 4 + 8 + 4 in three claims fits, a fourth does not.
  auto pass = Run(slices, {Claim("a", {Request("gcu", "4Gi")}),
                           Claim("b", {Request("gcu", "8Gi")}),
                           Claim("c", {Request("gcu", "4Gi")})});
  ASSERT_TRUE(pass.ok());
  EXPECT_TRUE(pass->fits);
  auto over = Run(slices, {Claim("a", {Request("gcu", "4Gi")}),
                           Claim("b", {Request("gcu", "8Gi")}),
                           Claim("c", {Request("gcu", "4Gi")}),
                           Claim("d", {Request("gcu", "1Gi")})});
  ASSERT_TRUE(over.ok());
  EXPECT_FALSE(over->fits);
  // 12Gi held, 4.5Gi rounds up to 5Gi: over.
  auto rounded = Run(slices, {Claim("c", {Request("gcu", "4.5Gi")})},
                     {Holding("gcu-0", "12Gi")});
  ASSERT_TRUE(rounded.ok());
  EXPECT_FALSE(rounded->fits);
}

// The KEP's migration example: memory is shared by policy, power has no
// policy, so an allocation that does not ask for power consumes all of it
// (consumedCapacity lists every capacity) and a second share cannot fit.
TEST_F(AllocatorTest, CapacityWithoutPolicyIsConsumedWhole) {
  json gpu = Gcu(0, true, "80Gi");
  gpu["capacity"]["memory"]["requestPolicy"] = {
      {"default", "80Gi"}, {"validRange", {{"min", "10Gi"}, {"step", "10Gi"}}}};
  gpu["capacity"]["power"] = {{"value", "700"}};
  const std::vector<json> slices = {Slice("s", "node-a", {gpu})};
  auto first = Run(slices, {Claim("c", {Request("gcu", "10Gi")})});
  ASSERT_TRUE(first.ok() && first->fits);
  EXPECT_EQ(first->allocations[0]["devices"]["results"][0]["consumedCapacity"],
            json::parse(R"({"memory": "10Gi", "power": "700"})"));
  auto second = Run(slices, {Claim("a", {Request("gcu", "10Gi")}),
                             Claim("b", {Request("gcu", "10Gi")})});
  ASSERT_TRUE(second.ok());
  EXPECT_FALSE(second->fits);
}

TEST_F(AllocatorTest, ShareIdsAreUnique) {
  RandomShareIds random;
  Allocator allocator({Slice("s", "node-a", {Gcu(0), Gcu(1)})},
                      {Class("gcu.enflame.com")}, {}, &random);
  std::vector<json> claims;
  claims.reserve(8);
  for (int i = 0; i < 8; ++i) {
    claims.push_back(Claim("c" + std::to_string(i), {Request("gcu", "4Gi")}));
  }
  auto outcome = allocator.Allocate(Node("node-a"), claims);
  ASSERT_TRUE(outcome.ok() && outcome->fits);
  std::set<std::string> ids;
  for (const json& allocation : outcome->allocations) {
    const std::string id = allocation["devices"]["results"][0]["shareID"];
    EXPECT_EQ(id.size(), 36u);
    EXPECT_EQ(id[14], '4');  // Version 4.
    ids.insert(id);
  }
  EXPECT_EQ(ids.size(), 8u);
}

TEST_F(AllocatorTest, ExclusiveDevicesAreUsedOnce) {
  const std::vector<json> slices = {
      Slice("s", "node-a", {Gcu(0, false), Gcu(1, false)})};
  auto one = Run(slices, {Claim("c", {Request("gcu")})});
  ASSERT_TRUE(one.ok() && one->fits);
  const json& result = one->allocations[0]["devices"]["results"][0];
  EXPECT_FALSE(result.contains("shareID"));
  EXPECT_FALSE(result.contains("consumedCapacity"));
  EXPECT_EQ(result["device"], "gcu-0");

  // gcu-0 is held: gcu-1 is taken.
  auto second =
      Run(slices, {Claim("c", {Request("gcu")})}, {Holding("gcu-0", "")});
  ASSERT_TRUE(second.ok() && second->fits);
  EXPECT_EQ(second->allocations[0]["devices"]["results"][0]["device"], "gcu-1");

  // Both held: nothing.
  auto none = Run(slices, {Claim("c", {Request("gcu")})},
                  {Holding("gcu-0", ""), Holding("gcu-1", "")});
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->fits);

  // Three claims in one pass for two cards.
  auto three =
      Run(slices, {Claim("a", {Request("gcu")}), Claim("b", {Request("gcu")}),
                   Claim("c", {Request("gcu")})});
  ASSERT_TRUE(three.ok());
  EXPECT_FALSE(three->fits);

  // A shareable card held whole (it was dedicated before) stays exclusive.
  auto whole =
      Run({Slice("s", "node-a", {Gcu(0)})},
          {Claim("c", {Request("gcu", "1Gi")})}, {Holding("gcu-0", "")});
  ASSERT_TRUE(whole.ok());
  EXPECT_FALSE(whole->fits);
}

TEST_F(AllocatorTest, ExclusiveDeviceCapacityRequests) {
  const std::vector<json> slices = {
      Slice("s", "node-a", {Gcu(0, false, "8Gi"), Gcu(1, false, "16Gi")})};
  auto big = Run(slices, {Claim("c", {Request("gcu", "12Gi")})});
  ASSERT_TRUE(big.ok() && big->fits);
  EXPECT_EQ(big->allocations[0]["devices"]["results"][0]["device"], "gcu-1");
  auto too_big = Run(slices, {Claim("c", {Request("gcu", "17Gi")})});
  ASSERT_TRUE(too_big.ok());
  EXPECT_FALSE(too_big->fits);
}

TEST_F(AllocatorTest, IneligibleCapacityRequests) {
  const std::vector<json> slices = {Slice("s", "node-a", {Gcu(0)})};
  // A capacity the device lacks.
  json request = Request("gcu");
  request["exactly"]["capacity"] = {{"requests", {{"cores", "2"}}}};
  auto lacking = Run(slices, {Claim("c", {request})});
  ASSERT_TRUE(lacking.ok());
  EXPECT_FALSE(lacking->fits);
  // Above validRange.max.
  auto above = Run(slices, {Claim("c", {Request("gcu", "17Gi")})});
  ASSERT_TRUE(above.ok());
  EXPECT_FALSE(above->fits);
}

TEST_F(AllocatorTest, ExactCountTakesDistinctDevices) {
  const std::vector<json> slices = {
      Slice("s", "node-a", {Gcu(0), Gcu(1), Gcu(2)})};
  // Count 2 without capacity: two whole cards (KEP-5004's N devices).
  auto two = Run(slices, {Claim("c", {Request("gcu", "", 2)})});
  ASSERT_TRUE(two.ok() && two->fits);
  const json& results = two->allocations[0]["devices"]["results"];
  ASSERT_EQ(results.size(), 2u);
  EXPECT_NE(results[0]["device"], results[1]["device"]);
  EXPECT_EQ(results[0]["consumedCapacity"]["memory"], "16Gi");
  EXPECT_EQ(results[1]["consumedCapacity"]["memory"], "16Gi");
  // Four 1Gi units are four devices, not 4Gi of one: three cards cannot.
  auto four = Run(slices, {Claim("c", {Request("gcu", "", 4)})});
  ASSERT_TRUE(four.ok());
  EXPECT_FALSE(four->fits);
}

TEST_F(AllocatorTest, AllocationModeAllTakesEveryMatchingDevice) {
  json request = Request("gcu");
  request["exactly"].erase("count");
  request["exactly"]["allocationMode"] = "All";
  auto all = Run({Slice("s", "node-a", {Gcu(0, false), Gcu(1, false)})},
                 {Claim("c", {request})});
  ASSERT_TRUE(all.ok() && all->fits);
  EXPECT_EQ(all->allocations[0]["devices"]["results"].size(), 2u);
  auto busy = Run({Slice("s", "node-a", {Gcu(0, false), Gcu(1, false)})},
                  {Claim("c", {request})}, {Holding("gcu-1", "")});
  ASSERT_TRUE(busy.ok());
  EXPECT_FALSE(busy->fits);
}

TEST_F(AllocatorTest, OnlyTheHighestGenerationCounts) {
  auto outcome = Run({Slice("old", "node-a", {Gcu(0), Gcu(1)}, 1),
                      Slice("new", "node-a", {Gcu(1)}, 2)},
                     {Claim("c", {Request("gcu", "", 2)})});
  ASSERT_TRUE(outcome.ok());
  EXPECT_FALSE(outcome->fits);  // Generation 2 has one card.
  auto one = Run({Slice("new", "node-a", {Gcu(1)}, 2),
                  Slice("old", "node-a", {Gcu(0)}, 1)},
                 {Claim("c", {Request("gcu")})});
  ASSERT_TRUE(one.ok() && one->fits);
  EXPECT_EQ(one->allocations[0]["devices"]["results"][0]["device"], "gcu-1");
}

TEST_F(AllocatorTest, IncompletePoolsAreNotUsed) {
  auto partial = Run({Slice("s1", "node-a", {Gcu(0)}, 1, 2)},
                     {Claim("c", {Request("gcu")})});
  ASSERT_TRUE(partial.ok());
  EXPECT_FALSE(partial->fits);
  auto complete = Run({Slice("s1", "node-a", {Gcu(0)}, 1, 2),
                       Slice("s2", "node-a", {Gcu(1)}, 1, 2)},
                      {Claim("c", {Request("gcu", "", 2)})});
  ASSERT_TRUE(complete.ok());
  EXPECT_TRUE(complete->fits);
  json all = Request("gcu");
  all["exactly"]["allocationMode"] = "All";
  auto error =
      Run({Slice("s1", "node-a", {Gcu(0)}, 1, 2)}, {Claim("c", {all})});
  ASSERT_FALSE(error.ok());
  EXPECT_EQ(error.status().message(),
            "claim demo/c, request gcu: asks for all devices, but resource "
            "pool node-a is currently being updated");
}

TEST_F(AllocatorTest, OtherNodesSlicesAreNotUsed) {
  auto outcome =
      Run({Slice("s", "node-b", {Gcu(0)})}, {Claim("c", {Request("gcu")})});
  ASSERT_TRUE(outcome.ok());
  EXPECT_FALSE(outcome->fits);
  json selected = Slice("s", "", {Gcu(0)}, 1, 1, "zone-pool");
  selected["spec"].erase("nodeName");
  selected["spec"]["nodeSelector"] = json::parse(
      R"({"nodeSelectorTerms": [{"matchExpressions": [
          {"key": "zone", "operator": "In", "values": ["z1"]}]}]})");
  auto zone = Run({selected}, {Claim("c", {Request("gcu")})});
  ASSERT_TRUE(zone.ok() && zone->fits);
  EXPECT_EQ(zone->allocations[0]["nodeSelector"],
            selected["spec"]["nodeSelector"]);
}

TEST_F(AllocatorTest, SelectorsOfClassAndRequestBothApply) {
  const std::vector<json> slices = {Slice("s", "node-a", {Gcu(0), Gcu(1)})};
  json request = Request("gcu");
  request["exactly"]["selectors"] = json::parse(
      R"([{"cel": {"expression":
          "device.attributes[\"gcu.enflame.com\"].index == 1"}}])");
  auto outcome = Run(slices, {Claim("c", {request})});
  ASSERT_TRUE(outcome.ok() && outcome->fits);
  EXPECT_EQ(outcome->allocations[0]["devices"]["results"][0]["device"],
            "gcu-1");

  auto other_class = Run(slices, {Claim("c", {Request("gcu")})}, {},
                         {Class("gcu.enflame.com", "device.driver == \"x\"")});
  ASSERT_TRUE(other_class.ok());
  EXPECT_FALSE(other_class->fits);
}

TEST_F(AllocatorTest, CelErrorsAreReportedAsTheSchedulerDoes) {
  const std::vector<json> slices = {Slice("s", "node-a", {Gcu(0)})};
  auto runtime =
      Run(slices, {Claim("c", {Request("gcu")})}, {},
          {Class("gcu.enflame.com",
                 "device.attributes[\"gcu.enflame.com\"].numaNode == 0")});
  ASSERT_FALSE(runtime.ok());
  EXPECT_EQ(runtime.status().message(),
            "class gcu.enflame.com: selector #0: CEL runtime error: no such "
            "key: numaNode");

  json request = Request("gcu");
  request["exactly"]["selectors"] = json::parse(
      R"json([{"cel": {"expression": "device.driver == \"gcu.enflame.com\""}},
          {"cel": {"expression": "device.name.startsWith(\"gcu\")"}}])json");
  auto compile = Run(slices, {Claim("c", {request})});
  ASSERT_FALSE(compile.ok());
  EXPECT_EQ(compile.status().message().rfind(
                "claim demo/c: selector #1: CEL compile error: ERROR: ", 0),
            0u)
      << compile.status().message();
  EXPECT_NE(compile.status().message().find("device.name.startsWith"),
            std::string::npos);
}

TEST_F(AllocatorTest, MissingClassAndUnsupportedFeaturesAreErrors) {
  json request = Request("gcu");
  request["exactly"]["deviceClassName"] = "nope";
  auto missing = Run({}, {Claim("c", {request})});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(),
            "claim demo/c, request gcu: could not retrieve device class nope: "
            "deviceclass.resource.k8s.io \"nope\" not found");

  json first_available = {
      {"name", "gcu"},
      {"firstAvailable",
       {{{"name", "a"}, {"deviceClassName", "gcu.enflame.com"}}}}};
  EXPECT_FALSE(Run({}, {Claim("c", {first_available})}).ok());
  json bad_amount = Request("gcu", "lots");
  EXPECT_FALSE(Run({}, {Claim("c", {bad_amount})}).ok());
}

TEST_F(AllocatorTest, ClassAndClaimConfigAreCopied) {
  json device_class = Class("gcu.enflame.com");
  device_class["spec"]["config"] = json::parse(
      R"([{"opaque": {"driver": "gcu.enflame.com", "parameters": {"a": 1}}}])");
  json claim = Claim("c", {Request("gcu")});
  claim["spec"]["devices"]["config"] = json::parse(
      R"([{"requests": ["gcu"], "opaque": {"driver": "gcu.enflame.com",
          "parameters": {"b": 2}}}])");
  auto outcome =
      Run({Slice("s", "node-a", {Gcu(0)})}, {claim}, {}, {device_class});
  ASSERT_TRUE(outcome.ok() && outcome->fits);
  EXPECT_EQ(outcome->allocations[0]["devices"]["config"], json::parse(R"([
    {"source": "FromClass", "requests": ["gcu"],
     "opaque": {"driver": "gcu.enflame.com", "parameters": {"a": 1}}},
    {"source": "FromClaim", "requests": ["gcu"],
     "opaque": {"driver": "gcu.enflame.com", "parameters": {"b": 2}}}])"));
}

}  // namespace
}  // namespace gcushare::dra_scheduler
