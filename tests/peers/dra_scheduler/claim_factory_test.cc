#include "tests/peers/dra_scheduler/claim_factory.h"

#include <gtest/gtest.h>

namespace gcushare::dra_scheduler {
namespace {

using nlohmann::json;

json Pod(json containers, json init_containers = json::array()) {
  return {{"metadata",
           {{"name", "train"}, {"namespace", "demo"}, {"uid", "pod-uid"}}},
          {"spec",
           {{"containers", containers}, {"initContainers", init_containers}}}};
}

json Container(const std::string& name, const json& requests,
               const json& limits = json()) {
  json resources = {{"requests", requests}};
  if (!limits.is_null()) resources["limits"] = limits;
  return {{"name", name}, {"resources", resources}};
}

json Class(const std::string& name, const std::string& extended = "") {
  json device_class = {{"metadata", {{"name", name}}},
                       {"spec", json::object()}};
  if (!extended.empty())
    device_class["spec"]["extendedResourceName"] = extended;
  return device_class;
}

TEST(ClaimFactoryTest, TemplateClaimAsTheControllerMakesIt) {
  const json claim_template = json::parse(R"({
    "metadata": {"name": "one-gcu", "namespace": "demo"},
    "spec": {
      "metadata": {"labels": {"team": "a"}, "annotations": {"note": "x"}},
      "spec": {"devices": {"requests": [{"name": "gcu", "exactly":
        {"deviceClassName": "gcu.enflame.com", "capacity":
          {"requests": {"memory": "4Gi"}}}}]}}}
  })");
  const json claim =
      ClaimFromTemplate(Pod(json::array()), "gcu", claim_template);
  EXPECT_EQ(claim, json::parse(R"({
    "apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
    "metadata": {
      "generateName": "train-gcu-", "namespace": "demo",
      "labels": {"team": "a"},
      "annotations": {"note": "x", "resource.kubernetes.io/pod-claim-name": "gcu"},
      "ownerReferences": [{"apiVersion": "v1", "kind": "Pod", "name": "train",
        "uid": "pod-uid", "controller": true, "blockOwnerDeletion": true}]},
    "spec": {"devices": {"requests": [{"name": "gcu", "exactly":
      {"deviceClassName": "gcu.enflame.com", "capacity":
        {"requests": {"memory": "4Gi"}}}}]}}
  })"))
      << claim.dump();
  json stored = claim;
  stored["metadata"]["name"] = "train-gcu-abcde";
  EXPECT_TRUE(IsTemplateClaimOf(stored, Pod(json::array()), "gcu"));
  EXPECT_FALSE(IsTemplateClaimOf(stored, Pod(json::array()), "other"));
}

TEST(ClaimFactoryTest, LongNamesAreCutProportionally) {
  EXPECT_EQ(TemplateClaimGenerateName("pod", "claim"), "pod-claim-");
  const std::string pod(60, 'p');
  const std::string claim(30, 'c');
  // 92 characters: each part keeps len * 57 / 92.
  EXPECT_EQ(TemplateClaimGenerateName(pod, claim),
            std::string(37, 'p') + "-" + std::string(18, 'c'));
}

TEST(ClaimFactoryTest, ExtendedResourcesBecomeOneClaimWithCountRequests) {
  const std::vector<json> classes = {
      Class("gcu.enflame.com"),
      Class("gcu-count.enflame.com", "enflame.com/gcu-count"),
      Class("gcu-memory.enflame.com", "enflame.com/gcu-memory")};
  const json pod = Pod(
      json::array(
          {Container("main", {{"cpu", "1"}, {"enflame.com/gcu-count", "2"}}),
           Container("side", {{"enflame.com/gcu-memory", "4"}}),
           Container("plain", {{"cpu", "1"}})}),
      json::array({Container(
          "init", json::object(),
          {{"deviceclass.resource.kubernetes.io/gcu.enflame.com", "1"}})}));
  auto built = BuildExtendedResourceClaim(pod, classes);
  ASSERT_TRUE(built.ok()) << built.status().message();
  ASSERT_TRUE(built->has_value());
  const ExtendedResourceClaim& claim = **built;
  // Container indices count init containers first; the request index is
  // the resource's place among the container's sorted request names.
  EXPECT_EQ(claim.claim["spec"], json::parse(R"({"devices": {"requests": [
    {"name": "container-0-request-0", "exactly": {"deviceClassName":
      "gcu.enflame.com", "allocationMode": "ExactCount", "count": 1}},
    {"name": "container-1-request-1", "exactly": {"deviceClassName":
      "gcu-count.enflame.com", "allocationMode": "ExactCount", "count": 2}},
    {"name": "container-2-request-0", "exactly": {"deviceClassName":
      "gcu-memory.enflame.com", "allocationMode": "ExactCount", "count": 4}}
  ]}})"))
      << claim.claim["spec"].dump();
  EXPECT_EQ(claim.request_mappings, json::parse(R"([
    {"containerName": "init", "resourceName":
      "deviceclass.resource.kubernetes.io/gcu.enflame.com",
      "requestName": "container-0-request-0"},
    {"containerName": "main", "resourceName": "enflame.com/gcu-count",
      "requestName": "container-1-request-1"},
    {"containerName": "side", "resourceName": "enflame.com/gcu-memory",
      "requestName": "container-2-request-0"}])"));
  EXPECT_EQ(claim.claim["metadata"]["generateName"],
            "train-extended-resources-");
  EXPECT_EQ(claim.claim["metadata"]["annotations"]
                       ["resource.kubernetes.io/extended-resource-claim"],
            "true");
  // N means N devices: no capacity request anywhere.
  EXPECT_EQ(claim.claim.dump().find("capacity"), std::string::npos);

  json stored = claim.claim;
  stored["metadata"]["name"] = "train-extended-resources-x";
  EXPECT_TRUE(IsExtendedResourceClaimOf(stored, pod));
}

TEST(ClaimFactoryTest, NoMappedResourceNoClaim) {
  const json pod =
      Pod(json::array({Container("main", {{"enflame.com/gcu-count", "2"}})}));
  auto built = BuildExtendedResourceClaim(pod, {Class("gcu.enflame.com")});
  ASSERT_TRUE(built.ok());
  EXPECT_FALSE(built->has_value());
  const json zero =
      Pod(json::array({Container("main", {{"enflame.com/gcu-count", "0"}})}));
  built = BuildExtendedResourceClaim(
      zero, {Class("gcu-count.enflame.com", "enflame.com/gcu-count")});
  ASSERT_TRUE(built.ok());
  EXPECT_FALSE(built->has_value());
}

TEST(ClaimFactoryTest, FractionalCountIsAnError) {
  const json pod = Pod(
      json::array({Container("main", {{"enflame.com/gcu-count", "1500m"}})}));
  auto built = BuildExtendedResourceClaim(
      pod, {Class("gcu-count.enflame.com", "enflame.com/gcu-count")});
  ASSERT_FALSE(built.ok());
  EXPECT_NE(built.status().message().find("enflame.com/gcu-count"),
            std::string::npos);
}

}  // namespace
}  // namespace gcushare::dra_scheduler
