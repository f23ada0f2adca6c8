// resource.k8s.io/v1 over real HTTP: ResourceSlice CRUD, generation, field
// selectors (list and watch), ResourceClaim status subresource semantics,
// templates and device classes, validation errors, and the feature gates'
// dropped fields on create and update (kept when already in use).
#include <gtest/gtest.h>

#include <string>

#include "testing/files.h"
#include "tests/peers/apiserver/testing/test_server.h"

namespace gcushare::apiserver {
namespace {

using testing::HttpResult;
using testing::TestServer;
using testing::WatchReader;

constexpr char kSlices[] = "/apis/resource.k8s.io/v1/resourceslices";
constexpr char kClaims[] =
    "/apis/resource.k8s.io/v1/namespaces/demo/resourceclaims";
constexpr char kTemplates[] =
    "/apis/resource.k8s.io/v1/namespaces/demo/resourceclaimtemplates";
constexpr char kClasses[] = "/apis/resource.k8s.io/v1/deviceclasses";
constexpr char kMerge[] = "application/merge-patch+json";

Json Device(const std::string& name, bool shared) {
  Json device = {{"name", name},
                 {"attributes",
                  {{"uuid", {{"string", "GCU-" + name}}},
                   {"index", {{"int", 0}}},
                   {"driverVersion", {{"version", "1.2.3"}}}}},
                 {"capacity", {{"memory", {{"value", "16Gi"}}}}}};
  if (shared) {
    device["allowMultipleAllocations"] = true;
    device["capacity"]["memory"]["requestPolicy"] = {
        {"default", "16Gi"},
        {"validRange", {{"min", "1Gi"}, {"step", "1Gi"}, {"max", "16Gi"}}}};
  }
  return device;
}

Json Slice(const std::string& node, bool shared = false,
           const std::string& name = "") {
  Json slice = {
      {"apiVersion", "resource.k8s.io/v1"},
      {"kind", "ResourceSlice"},
      {"metadata", Json::object()},
      {"spec",
       {{"driver", "gcu.enflame.com"},
        {"nodeName", node},
        {"pool",
         {{"name", node}, {"generation", 1}, {"resourceSliceCount", 1}}},
        {"devices", Json::array({Device("gcu-0", shared)})}}}};
  if (name.empty()) {
    slice["metadata"]["generateName"] = node + "-gcu.enflame.com-";
  } else {
    slice["metadata"]["name"] = name;
  }
  return slice;
}

Json Claim(const std::string& name, bool capacity = false) {
  Json exactly = {{"deviceClassName", "gcu.enflame.com"}};
  if (capacity) exactly["capacity"] = {{"requests", {{"memory", "4Gi"}}}};
  return {{"apiVersion", "resource.k8s.io/v1"},
          {"kind", "ResourceClaim"},
          {"metadata", {{"name", name}, {"labels", {{"app", "x"}}}}},
          {"spec",
           {{"devices",
             {{"requests",
               Json::array({{{"name", "gcu"}, {"exactly", exactly}}})}}}}}};
}

Json Allocation(bool shares) {
  Json result = {{"request", "gcu"},
                 {"driver", "gcu.enflame.com"},
                 {"pool", "n1"},
                 {"device", "gcu-0"}};
  if (shares) {
    result["shareID"] = "7b1f3a2e-0c2d-4f5e-9a8b-1c2d3e4f5a6b";
    result["consumedCapacity"] = {{"memory", "4Gi"}};
  }
  return {{"devices", {{"results", Json::array({result})}}}};
}

std::string Causes(const HttpResult& r) {
  std::string out;
  for (const Json& c : r.json["details"]["causes"]) {
    out += c.value("field", "") + ": " + c.value("message", "") + "\n";
  }
  return out;
}

TEST(DraHttpTest, SliceCreateGenerationAndKinds) {
  TestServer s;
  HttpResult created = s.Post(kSlices, Slice("n1").dump());
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string name = created.json["metadata"]["name"];
  EXPECT_EQ(name.rfind("n1-gcu.enflame.com-", 0), 0u) << name;
  EXPECT_EQ(created.json["apiVersion"], "resource.k8s.io/v1");
  EXPECT_EQ(created.json["kind"], "ResourceSlice");
  EXPECT_EQ(created.json["metadata"]["generation"], 1);
  EXPECT_FALSE(created.json["metadata"].contains("namespace"));

  // A spec change bumps the generation; a label change does not.
  Json updated = created.json;
  updated["spec"]["pool"]["generation"] = 2;
  HttpResult put = s.Put(std::string(kSlices) + "/" + name, updated.dump());
  ASSERT_EQ(put.status, 200) << put.body;
  EXPECT_EQ(put.json["metadata"]["generation"], 2);
  HttpResult labeled = s.Patch(std::string(kSlices) + "/" + name,
                               R"({"metadata":{"labels":{"a":"b"}}})", kMerge);
  ASSERT_EQ(labeled.status, 200) << labeled.body;
  EXPECT_EQ(labeled.json["metadata"]["generation"], 2);
  // A client cannot set the generation itself.
  HttpResult forced = s.Patch(std::string(kSlices) + "/" + name,
                              R"({"metadata":{"generation":7}})", kMerge);
  ASSERT_EQ(forced.status, 200) << forced.body;
  EXPECT_EQ(forced.json["metadata"]["generation"], 2);

  HttpResult list = s.Get(kSlices);
  ASSERT_EQ(list.status, 200);
  EXPECT_EQ(list.json["kind"], "ResourceSliceList");
  EXPECT_EQ(list.json["apiVersion"], "resource.k8s.io/v1");

  HttpResult deleted = s.Delete(std::string(kSlices) + "/" + name);
  ASSERT_EQ(deleted.status, 200) << deleted.body;
  EXPECT_EQ(deleted.json["details"]["group"], "resource.k8s.io");
  EXPECT_EQ(deleted.json["details"]["kind"], "resourceslices");
  HttpResult gone = s.Get(std::string(kSlices) + "/" + name);
  EXPECT_EQ(gone.status, 404);
  EXPECT_EQ(gone.json["message"],
            "resourceslices.resource.k8s.io \"" + name + "\" not found");
}

TEST(DraHttpTest, SliceFieldSelectorsInListAndWatch) {
  TestServer s;
  ASSERT_EQ(s.Post(kSlices, Slice("n1", false, "a").dump()).status, 201);
  ASSERT_EQ(s.Post(kSlices, Slice("n2", false, "b").dump()).status, 201);
  Json other = Slice("n1", false, "c");
  other["spec"]["driver"] = "other.example.com";
  ASSERT_EQ(s.Post(kSlices, other.dump()).status, 201);

  HttpResult mine = s.Get(
      std::string(kSlices) +
      "?fieldSelector=spec.nodeName%3Dn1%2Cspec.driver%3Dgcu.enflame.com");
  ASSERT_EQ(mine.status, 200) << mine.body;
  ASSERT_EQ(mine.json["items"].size(), 1u);
  EXPECT_EQ(mine.json["items"][0]["metadata"]["name"], "a");
  HttpResult by_name =
      s.Get(std::string(kSlices) + "?fieldSelector=metadata.name%3Db");
  ASSERT_EQ(by_name.json["items"].size(), 1u);
  HttpResult bad = s.Get(std::string(kSlices) + "?fieldSelector=spec.pool%3Dx");
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(bad.json["message"], "field label not supported: spec.pool");

  WatchReader w(s.port(), std::string(kSlices) +
                              "?watch=true&fieldSelector=spec.nodeName%3Dn2");
  ASSERT_EQ(w.status(), 200);
  auto initial = w.Next();
  ASSERT_TRUE(initial.has_value());
  EXPECT_EQ((*initial)["type"], "ADDED");
  EXPECT_EQ((*initial)["object"]["metadata"]["name"], "b");
  EXPECT_EQ((*initial)["object"]["apiVersion"], "resource.k8s.io/v1");
  ASSERT_EQ(s.Post(kSlices, Slice("n1", false, "d").dump()).status, 201);
  ASSERT_EQ(s.Post(kSlices, Slice("n2", false, "e").dump()).status, 201);
  auto added = w.Next();
  ASSERT_TRUE(added.has_value());
  EXPECT_EQ((*added)["object"]["metadata"]["name"], "e");
  ASSERT_EQ(s.Delete(std::string(kSlices) + "/b").status, 200);
  auto deleted = w.Next();
  ASSERT_TRUE(deleted.has_value());
  EXPECT_EQ((*deleted)["type"], "DELETED");
  EXPECT_EQ((*deleted)["object"]["metadata"]["name"], "b");
}

TEST(DraHttpTest, ClaimStatusSubresource) {
  TestServer s;
  Json claim = Claim("c1");
  claim["status"] = {{"allocation", Allocation(false)}};
  HttpResult created = s.Post(kClaims, claim.dump());
  ASSERT_EQ(created.status, 201) << created.body;
  // Create empties the status and defaults the request.
  EXPECT_EQ(created.json["status"], Json::object());
  const Json& exactly =
      created.json["spec"]["devices"]["requests"][0]["exactly"];
  EXPECT_EQ(exactly["allocationMode"], "ExactCount");
  EXPECT_EQ(exactly["count"], 1);
  EXPECT_FALSE(created.json["metadata"].contains("generation"));

  // /status changes the status only: spec and labels stay as stored.
  Json status_update = created.json;
  status_update["status"] = {{"allocation", Allocation(true)}};
  status_update["spec"]["devices"]["requests"][0]["name"] = "changed";
  status_update["metadata"]["labels"] = {{"app", "y"}};
  HttpResult status =
      s.Put(std::string(kClaims) + "/c1/status", status_update.dump());
  ASSERT_EQ(status.status, 200) << status.body;
  EXPECT_EQ(status.json["status"]["allocation"], Allocation(true));
  EXPECT_EQ(status.json["spec"], created.json["spec"]);
  EXPECT_EQ(status.json["metadata"]["labels"]["app"], "x");

  // The main resource keeps the stored status.
  Json main_update = status.json;
  main_update["status"] = Json::object();
  main_update["metadata"]["labels"] = {{"app", "z"}};
  HttpResult main = s.Put(std::string(kClaims) + "/c1", main_update.dump());
  ASSERT_EQ(main.status, 200) << main.body;
  EXPECT_EQ(main.json["status"]["allocation"], Allocation(true));
  EXPECT_EQ(main.json["metadata"]["labels"]["app"], "z");

  // The spec is immutable.
  Json spec_update = main.json;
  spec_update["spec"]["devices"]["requests"][0]["exactly"]["count"] = 2;
  HttpResult immutable =
      s.Put(std::string(kClaims) + "/c1", spec_update.dump());
  EXPECT_EQ(immutable.status, 422) << immutable.body;
  EXPECT_EQ(immutable.json["details"]["causes"][0]["field"], "spec");
  EXPECT_NE(
      immutable.json["message"].get<std::string>().find("field is immutable"),
      std::string::npos);
  EXPECT_EQ(immutable.json["message"].get<std::string>().rfind(
                "ResourceClaim.resource.k8s.io \"c1\" is invalid: spec: "
                "Invalid value: ",
                0),
            0u)
      << immutable.body;

  // A merge patch of /status clears the allocation.
  HttpResult cleared = s.Patch(std::string(kClaims) + "/c1/status",
                               R"({"status":{"allocation":null}})", kMerge);
  ASSERT_EQ(cleared.status, 200) << cleared.body;
  EXPECT_FALSE(cleared.json["status"].contains("allocation"));
  EXPECT_EQ(cleared.json["spec"], created.json["spec"]);

  EXPECT_EQ(
      s.Get("/apis/resource.k8s.io/v1/resourceclaims").json["items"].size(),
      1u);
  HttpResult no_status =
      s.Get("/apis/resource.k8s.io/v1/resourceslices/x/status");
  EXPECT_EQ(no_status.status, 404);
}

TEST(DraHttpTest, TemplatesAndClasses) {
  TestServer s;
  Json tmpl = {{"metadata", {{"name", "one-gcu"}}},
               {"spec", {{"spec", Claim("x")["spec"]}}}};
  HttpResult created = s.Post(kTemplates, tmpl.dump());
  ASSERT_EQ(created.status, 201) << created.body;
  EXPECT_EQ(created.json["kind"], "ResourceClaimTemplate");
  EXPECT_EQ(created.json["spec"]["spec"]["devices"]["requests"][0]["exactly"]
                        ["count"],
            1);
  Json changed = created.json;
  changed["spec"]["spec"]["devices"]["requests"][0]["name"] = "other";
  EXPECT_EQ(s.Put(std::string(kTemplates) + "/one-gcu", changed.dump()).status,
            422);

  Json device_class = {
      {"metadata", {{"name", "gcu.enflame.com"}}},
      {"spec",
       {{"selectors",
         Json::array(
             {{{"cel",
                {{"expression", "device.driver == \"gcu.enflame.com\""}}}}})},
        {"extendedResourceName", "enflame.com/gcu-count"}}}};
  HttpResult cls = s.Post(kClasses, device_class.dump());
  ASSERT_EQ(cls.status, 201) << cls.body;
  EXPECT_EQ(cls.json["metadata"]["generation"], 1);
  EXPECT_EQ(cls.json["spec"]["extendedResourceName"], "enflame.com/gcu-count");
  HttpResult got = s.Get(std::string(kClasses) + "/gcu.enflame.com");
  EXPECT_EQ(got.json, cls.json);

  device_class["metadata"]["name"] = "bad";
  device_class["spec"]["extendedResourceName"] = "cpu";
  HttpResult bad = s.Post(kClasses, device_class.dump());
  EXPECT_EQ(bad.status, 422);
  EXPECT_EQ(bad.json["message"],
            "DeviceClass.resource.k8s.io \"bad\" is invalid: "
            "spec.extendedResourceName: Invalid value: \"cpu\": must be a "
            "valid extended resource name");
}

TEST(DraHttpTest, MalformedQuantitiesAre400) {
  TestServer s;
  Json slice = Slice("n1", false, "x");
  slice["spec"]["devices"][0]["capacity"]["memory"]["value"] = "16 Gi";
  HttpResult r = s.Post(kSlices, slice.dump());
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.json["message"],
            "ResourceSlice in version \"v1\" cannot be handled as a "
            "ResourceSlice: quantities must match the regular expression "
            "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
  EXPECT_EQ(s.Get(std::string(kSlices) + "/x").status, 404);

  HttpResult claim = s.Post(kClaims, Claim("c", true).dump());
  ASSERT_EQ(claim.status, 201);
  Json bad = Claim("d", true);
  bad["spec"]["devices"]["requests"][0]["exactly"]["capacity"]["requests"]
     ["memory"] = "4Gii";
  r = s.Post(kClaims, bad.dump());
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.json["message"],
            "ResourceClaim in version \"v1\" cannot be handled as a "
            "ResourceClaim: unable to parse quantity's suffix");
  Json status = claim.json;
  status["status"] = {{"allocation", Allocation(true)}};
  status["status"]["allocation"]["devices"]["results"][0]["consumedCapacity"]
        ["memory"] = "x";
  r = s.Put(std::string(kClaims) + "/c/status", status.dump());
  EXPECT_EQ(r.status, 400);
}

TEST(DraHttpTest, SliceValidation) {
  TestServer s;
  Json empty = {{"metadata", {{"name", "x"}}}, {"spec", Json::object()}};
  HttpResult r = s.Post(kSlices, empty.dump());
  EXPECT_EQ(r.status, 422);
  EXPECT_EQ(r.json["reason"], "Invalid");
  EXPECT_EQ(r.json["details"]["group"], "resource.k8s.io");
  EXPECT_EQ(r.json["details"]["kind"], "ResourceSlice");
  EXPECT_EQ(Causes(r),
            "spec.driver: Required value\n"
            "spec.pool.name: Required value\n"
            "spec.pool.resourceSliceCount: Invalid value: 0: must be greater "
            "than zero\n"
            "spec: Required value: exactly one of `nodeName`, `nodeSelector`, "
            "`allNodes`, `perDeviceNodeSelection` is required\n");

  Json both = Slice("n1", false, "x");
  both["spec"]["allNodes"] = true;
  r = s.Post(kSlices, both.dump());
  EXPECT_EQ(r.status, 422);
  EXPECT_EQ(r.json["message"],
            "ResourceSlice.resource.k8s.io \"x\" is invalid: spec: Invalid "
            "value: \"{`nodeName`, `allNodes`}\": exactly one of `nodeName`, "
            "`nodeSelector`, `allNodes`, `perDeviceNodeSelection` is "
            "required, but multiple fields are set");

  Json long_driver = Slice("n1", false, "x");
  long_driver["spec"]["driver"] = std::string(64, 'a');
  r = s.Post(kSlices, long_driver.dump());
  EXPECT_EQ(Causes(r),
            "spec.driver: Too long: may not be more than 63 bytes\n");

  Json many = Slice("n1", false, "x");
  many["spec"]["devices"] = Json::array();
  for (int i = 0; i < 129; ++i) {
    many["spec"]["devices"].push_back(
        Device("gcu-" + std::to_string(i), false));
  }
  r = s.Post(kSlices, many.dump());
  EXPECT_EQ(Causes(r),
            "spec.devices: Too many: 129: must have at most 128 items\n");
  many["spec"]["devices"].erase(128);
  EXPECT_EQ(s.Post(kSlices, many.dump()).status, 201);

  Json devices = Slice("n1", false, "y");
  Json bad_device = Device("GCU_0", false);
  bad_device["attributes"]["model"] = {{"string", std::string(65, 'm')}};
  bad_device["attributes"]["both"] = {{"int", 1}, {"bool", true}};
  bad_device["attributes"]["none"] = Json::object();
  bad_device["capacity"]["memory"]["requestPolicy"] = {{"default", "1Gi"}};
  devices["spec"]["devices"] =
      Json::array({Device("gcu-0", false), Device("gcu-0", false), bad_device});
  r = s.Post(kSlices, devices.dump());
  EXPECT_EQ(r.status, 422);
  EXPECT_EQ(
      Causes(r),
      "spec.devices[1]: Duplicate value: \"gcu-0\"\n"
      "spec.devices[2].name: Invalid value: \"GCU_0\": a lowercase RFC 1123 "
      "label must consist of lower case alphanumeric characters or '-', and "
      "must start and end with an alphanumeric character (e.g. 'my-name',  "
      "or '123-abc', regex used for validation is "
      "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')\n"
      "spec.devices[2].attributes[both]: Invalid value: "
      "{\"int\":1,\"bool\":true}: exactly one value must be specified\n"
      "spec.devices[2].attributes[model].string: Too long: may not be more "
      "than 64 bytes\n"
      "spec.devices[2].attributes[none]: Invalid value: \"\": exactly one "
      "value must be specified\n"
      "spec.devices[2].capacity[memory].requestPolicy: Forbidden: "
      "allowMultipleAllocations must be true\n");

  Json too_many_attributes = Slice("n1", false, "z");
  for (int i = 0; i < 30; ++i) {
    too_many_attributes["spec"]["devices"][0]["attributes"]
                       ["a" + std::to_string(i)] = {{"bool", true}};
  }
  r = s.Post(kSlices, too_many_attributes.dump());
  EXPECT_EQ(Causes(r),
            "spec.devices[0]: Invalid value: 34: the total number of "
            "attributes and capacities must not exceed 32\n");
}

TEST(DraHttpTest, RequestPolicyValidation) {
  TestServer s;
  Json slice = Slice("n1", true, "x");
  Json& policy =
      slice["spec"]["devices"][0]["capacity"]["memory"]["requestPolicy"];
  policy["default"] = "3Gi";
  policy["validRange"] = {{"min", "1Gi"}, {"step", "2Gi"}, {"max", "16Gi"}};
  HttpResult r = s.Post(kSlices, slice.dump());
  EXPECT_EQ(r.status, 422);
  EXPECT_EQ(Causes(r),
            "spec.devices[0].capacity[memory].requestPolicy.validRange.step: "
            "Invalid value: \"16Gi\": value is not a multiple of a given step "
            "(2Gi) from (1Gi)\n");

  policy["default"] = "32Gi";
  policy["validRange"] = {{"min", "1Gi"}, {"step", "1Gi"}, {"max", "32Gi"}};
  r = s.Post(kSlices, slice.dump());
  EXPECT_EQ(Causes(r),
            "spec.devices[0].capacity[memory].requestPolicy.validRange.max: "
            "Invalid value: \"32Gi\": max is larger than capacity value: "
            "16Gi\n");

  policy["default"] = "16Gi";
  policy["validRange"] = {{"min", "16Gi"}, {"step", "1Gi"}};
  r = s.Post(kSlices, slice.dump());
  EXPECT_EQ(Causes(r),
            "spec.devices[0].capacity[memory].requestPolicy.validRange.step: "
            "Invalid value: \"1Gi\": one step 17Gi is larger than capacity "
            "value: 16Gi\n");

  policy.erase("validRange");
  policy["default"] = "4Gi";
  policy["validValues"] = Json::array({"8Gi", "4Gi"});
  r = s.Post(kSlices, slice.dump());
  EXPECT_EQ(Causes(r),
            "spec.devices[0].capacity[memory].requestPolicy.validValues[1]: "
            "Invalid value: \"4Gi\": values must be sorted in ascending "
            "order\n");

  policy["validValues"] = Json::array({"4Gi", "8Gi"});
  r = s.Post(kSlices, slice.dump());
  EXPECT_EQ(r.status, 201) << r.body;

  // spec.driver and spec.nodeName are immutable.
  Json moved = r.json;
  moved["spec"]["nodeName"] = "n2";
  moved["spec"]["driver"] = "other.example.com";
  HttpResult immutable = s.Put(std::string(kSlices) + "/x", moved.dump());
  EXPECT_EQ(immutable.status, 422);
  EXPECT_EQ(Causes(immutable),
            "spec.driver: Invalid value: \"other.example.com\": field is "
            "immutable\n"
            "spec.nodeName: Invalid value: \"n2\": field is immutable\n");
}

TEST(DraHttpTest, ClaimValidation) {
  TestServer s;
  Json claim = Claim("c");
  Json& requests = claim["spec"]["devices"]["requests"];
  requests[0]["exactly"].erase("deviceClassName");
  requests.push_back(
      {{"name", "Bad"},
       {"exactly", {{"deviceClassName", "x"}}},
       {"firstAvailable",
        Json::array({{{"name", "s"}, {"deviceClassName", "x"}}})}});
  requests.push_back({{"name", "none"}});
  requests.push_back(
      {{"name", "gcu"},
       {"exactly",
        {{"deviceClassName", "x"}, {"allocationMode", "All"}, {"count", 2}}}});
  HttpResult r = s.Post(kClaims, claim.dump());
  EXPECT_EQ(r.status, 422);
  EXPECT_EQ(
      Causes(r),
      "spec.devices.requests[0].exactly.deviceClassName: Required value\n"
      "spec.devices.requests[1].name: Invalid value: \"Bad\": a lowercase "
      "RFC 1123 label must consist of lower case alphanumeric characters or "
      "'-', and must start and end with an alphanumeric character (e.g. "
      "'my-name',  or '123-abc', regex used for validation is "
      "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')\n"
      "spec.devices.requests[1]: Invalid value: null: exactly one of "
      "`exactly` or `firstAvailable` is required, but multiple fields are "
      "set\n"
      "spec.devices.requests[2]: Required value: exactly one of `exactly` "
      "or `firstAvailable` is required\n"
      "spec.devices.requests[3].exactly.count: Invalid value: 2: must not "
      "be specified when allocationMode is 'All'\n"
      "spec.devices.requests[3]: Duplicate value: \"gcu\"\n");

  Json many = Claim("m");
  for (int i = 1; i < 33; ++i) {
    Json request = many["spec"]["devices"]["requests"][0];
    request["name"] = "r" + std::to_string(i);
    many["spec"]["devices"]["requests"].push_back(request);
  }
  r = s.Post(kClaims, many.dump());
  EXPECT_EQ(Causes(r),
            "spec.devices.requests: Too many: 33: must have at most 32 "
            "items\n");

  ASSERT_EQ(s.Post(kClaims, Claim("ok").dump()).status, 201);
  Json status = s.Get(std::string(kClaims) + "/ok").json;
  Json results = Json::array();
  for (int i = 0; i < 33; ++i) {
    results.push_back(Allocation(false)["devices"]["results"][0]);
  }
  status["status"] = {{"allocation", {{"devices", {{"results", results}}}}}};
  r = s.Put(std::string(kClaims) + "/ok/status", status.dump());
  EXPECT_EQ(r.status, 422);
  EXPECT_EQ(Causes(r),
            "status.allocation.devices.results: Too many: 33: must have at "
            "most 32 items\n");
}

TEST(DraHttpTest, ClaimStatusRules) {
  TestServer s;
  ASSERT_EQ(s.Post(kClaims, Claim("c").dump()).status, 201);
  const std::string status_path = std::string(kClaims) + "/c/status";
  Json pod = {{"resource", "pods"}, {"name", "p"}, {"uid", "pod-1"}};

  HttpResult reserved_only = s.Patch(
      status_path,
      Json({{"status", {{"reservedFor", Json::array({pod})}}}}).dump(), kMerge);
  EXPECT_EQ(reserved_only.status, 422);
  EXPECT_EQ(Causes(reserved_only),
            "status.reservedFor: Forbidden: may not be specified when "
            "`allocated` is not set\n");

  Json bad_result = Allocation(false);
  bad_result["devices"]["results"][0]["request"] = "nope";
  bad_result["devices"]["results"][0].erase("pool");
  HttpResult bad =
      s.Patch(status_path,
              Json({{"status", {{"allocation", bad_result}}}}).dump(), kMerge);
  EXPECT_EQ(bad.status, 422);
  EXPECT_EQ(Causes(bad),
            "status.allocation.devices.results[0].request: Invalid value: "
            "\"nope\": must be the name of a request in the claim\n"
            "status.allocation.devices.results[0].pool: Required value\n");

  HttpResult allocated =
      s.Patch(status_path,
              Json({{"status",
                     {{"allocation", Allocation(true)},
                      {"reservedFor", Json::array({pod, pod})}}}})
                  .dump(),
              kMerge);
  EXPECT_EQ(allocated.status, 422);
  EXPECT_EQ(Causes(allocated),
            "status.reservedFor[1]: Duplicate value: \"pod-1\"\n");
  allocated = s.Patch(status_path,
                      Json({{"status",
                             {{"allocation", Allocation(true)},
                              {"reservedFor", Json::array({pod})}}}})
                          .dump(),
                      kMerge);
  ASSERT_EQ(allocated.status, 200) << allocated.body;

  // Once set, the allocation cannot change; it can be cleared after the
  // reservations are gone.
  HttpResult changed = s.Patch(
      status_path,
      R"({"status":{"allocation":{"devices":{"results":[{"request":"gcu",)"
      R"("driver":"gcu.enflame.com","pool":"n1","device":"gcu-1"}]}}}})",
      kMerge);
  EXPECT_EQ(changed.status, 422);
  EXPECT_EQ(changed.json["details"]["causes"][0]["field"], "status.allocation");
  HttpResult cleared =
      s.Patch(status_path,
              R"({"status":{"allocation":null,"reservedFor":null}})", kMerge);
  EXPECT_EQ(cleared.status, 200) << cleared.body;
}

TEST(DraHttpTest, ConsumableCapacityGateOffDropsOnCreate) {
  ServerOptions options;
  options.feature_gates.dra_consumable_capacity = false;
  TestServer s(options);
  HttpResult slice = s.Post(kSlices, Slice("n1", true, "x").dump());
  ASSERT_EQ(slice.status, 201) << slice.body;
  const Json& device = slice.json["spec"]["devices"][0];
  EXPECT_FALSE(device.contains("allowMultipleAllocations"));
  EXPECT_EQ(device["capacity"]["memory"], Json({{"value", "16Gi"}}));
  EXPECT_EQ(s.Get(std::string(kSlices) + "/x").json, slice.json);

  HttpResult claim = s.Post(kClaims, Claim("c", true).dump());
  ASSERT_EQ(claim.status, 201) << claim.body;
  EXPECT_FALSE(claim.json["spec"]["devices"]["requests"][0]["exactly"].contains(
      "capacity"));
  Json with_status = claim.json;
  with_status["status"] = {{"allocation", Allocation(true)}};
  HttpResult status =
      s.Put(std::string(kClaims) + "/c/status", with_status.dump());
  ASSERT_EQ(status.status, 200) << status.body;
  EXPECT_EQ(status.json["status"]["allocation"], Allocation(false));

  HttpResult tmpl =
      s.Post(kTemplates, Json({{"metadata", {{"name", "t"}}},
                               {"spec", {{"spec", Claim("x", true)["spec"]}}}})
                             .dump());
  ASSERT_EQ(tmpl.status, 201) << tmpl.body;
  EXPECT_FALSE(
      tmpl.json["spec"]["spec"]["devices"]["requests"][0]["exactly"].contains(
          "capacity"));

  // With the gate on (the default) everything is kept.
  TestServer on;
  HttpResult kept = on.Post(kSlices, Slice("n1", true, "x").dump());
  ASSERT_EQ(kept.status, 201);
  EXPECT_EQ(kept.json["spec"]["devices"][0], Device("gcu-0", true));
  HttpResult kept_status = on.Post(kClaims, Claim("c", true).dump());
  EXPECT_EQ(kept_status.json["spec"]["devices"]["requests"][0]["exactly"]
                            ["capacity"]["requests"]["memory"],
            "4Gi");
}

TEST(DraHttpTest, GatesOffKeepFieldsAlreadyInUse) {
  const std::string state =
      gcushare::testing::MakeTempDir() + "/dra_state.jsonl";
  ServerOptions options;
  options.state_file = state;
  {
    TestServer on(options);
    ASSERT_EQ(on.Post(kSlices, Slice("n1", true, "used").dump()).status, 201);
    ASSERT_EQ(on.Post(kSlices, Slice("n2", false, "plain").dump()).status, 201);
    Json cls = {{"metadata", {{"name", "count"}}},
                {"spec", {{"extendedResourceName", "enflame.com/gcu-count"}}}};
    ASSERT_EQ(on.Post(kClasses, cls.dump()).status, 201);
  }
  options.feature_gates.dra_consumable_capacity = false;
  options.feature_gates.dra_extended_resource = false;
  TestServer off(options);
  // The old slice used the feature: an update keeps (and may change) it.
  Json used = off.Get(std::string(kSlices) + "/used").json;
  used["spec"]["devices"].push_back(Device("gcu-1", true));
  HttpResult kept = off.Put(std::string(kSlices) + "/used", used.dump());
  ASSERT_EQ(kept.status, 200) << kept.body;
  EXPECT_EQ(kept.json["spec"]["devices"][1], Device("gcu-1", true));
  // The other did not: the fields are dropped on update.
  Json plain = off.Get(std::string(kSlices) + "/plain").json;
  plain["spec"]["devices"][0] = Device("gcu-0", true);
  HttpResult dropped = off.Put(std::string(kSlices) + "/plain", plain.dump());
  ASSERT_EQ(dropped.status, 200) << dropped.body;
  EXPECT_EQ(dropped.json["spec"]["devices"][0], Device("gcu-0", false));

  HttpResult cls = off.Patch(std::string(kClasses) + "/count",
                             R"({"metadata":{"labels":{"a":"b"}}})", kMerge);
  ASSERT_EQ(cls.status, 200) << cls.body;
  EXPECT_EQ(cls.json["spec"]["extendedResourceName"], "enflame.com/gcu-count");
  // A dropped field is no spec change: the generation stays.
  Json again = cls.json;
  again["spec"]["extendedResourceName"] = "enflame.com/other";
  HttpResult changed = off.Put(std::string(kClasses) + "/count", again.dump());
  ASSERT_EQ(changed.status, 200) << changed.body;
  EXPECT_EQ(changed.json["metadata"]["generation"], 2);
  Json plain_class = {{"metadata", {{"name", "plain"}}},
                      {"spec", Json::object()}};
  HttpResult plain_created = off.Post(kClasses, plain_class.dump());
  ASSERT_EQ(plain_created.status, 201);
  Json with_name = plain_created.json;
  with_name["spec"]["extendedResourceName"] = "enflame.com/gcu-count";
  HttpResult not_bumped =
      off.Put(std::string(kClasses) + "/plain", with_name.dump());
  ASSERT_EQ(not_bumped.status, 200) << not_bumped.body;
  EXPECT_EQ(not_bumped.json["metadata"]["generation"], 1);
  EXPECT_FALSE(not_bumped.json["spec"].contains("extendedResourceName"));

  Json fresh = {{"metadata", {{"name", "fresh"}}},
                {"spec", {{"extendedResourceName", "enflame.com/gcu-count"}}}};
  HttpResult created = off.Post(kClasses, fresh.dump());
  ASSERT_EQ(created.status, 201) << created.body;
  EXPECT_FALSE(created.json["spec"].contains("extendedResourceName"));
}

}  // namespace
}  // namespace gcushare::apiserver
