// PATCH over real HTTP: the four content types, their errors, the
// resourceVersion precondition and the status subresource.
#include <gtest/gtest.h>

#include <string>

#include "tests/peers/apiserver/testing/test_server.h"

namespace gcushare::apiserver {
namespace {

using testing::HttpResult;
using testing::TestServer;

constexpr char kMerge[] = "application/merge-patch+json";
constexpr char kStrategic[] = "application/strategic-merge-patch+json";
constexpr char kJsonPatch[] = "application/json-patch+json";
constexpr char kApply[] = "application/apply-patch+yaml";
constexpr char kPod[] = "/api/v1/namespaces/default/pods/p1";

class PatchHttpTest : public ::testing::Test {
 protected:
  void SetUp() override {
    pod_ = server_.CreatePod("default", "p1", {{"app", "a"}});
    Json annotated = {
        {"metadata", {{"annotations", {{"gone", "x"}, {"keep", "y"}}}}}};
    HttpResult r = server_.Patch(kPod, DumpJson(annotated), kMerge);
    ASSERT_EQ(r.status, 200) << r.body;
    pod_ = r.json;
  }

  TestServer server_;
  Json pod_;
};

TEST_F(PatchHttpTest, MergePatchSetsAndDeletesAnnotations) {
  HttpResult r = server_.Patch(
      kPod, R"({"metadata":{"annotations":{"k":"v","gone":null}}})", kMerge);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json["metadata"]["annotations"],
            Json({{"keep", "y"}, {"k", "v"}}));
  EXPECT_EQ(r.json["metadata"]["resourceVersion"], "3");
  // The same patch again changes nothing and writes nothing.
  HttpResult again = server_.Patch(
      kPod, R"({"metadata":{"annotations":{"k":"v","gone":null}}})", kMerge);
  EXPECT_EQ(again.json["metadata"]["resourceVersion"], "3");
  // Charset parameters are ignored.
  HttpResult charset =
      server_.Patch(kPod, R"({"metadata":{"labels":{"b":"c"}}})",
                    "application/merge-patch+json; charset=utf-8");
  EXPECT_EQ(charset.status, 200);
}

TEST_F(PatchHttpTest, StrategicPatchMergesConditionsOnStatus) {
  HttpResult set = server_.Patch(
      std::string(kPod) + "/status",
      R"({"status":{"conditions":[{"type":"Ready","status":"False"},
                                  {"type":"Initialized","status":"True"}]}})",
      kStrategic);
  ASSERT_EQ(set.status, 200) << set.body;
  HttpResult merged = server_.Patch(
      std::string(kPod) + "/status",
      R"({"status":{"conditions":[{"type":"Ready","status":"True"}]}})",
      kStrategic);
  ASSERT_EQ(merged.status, 200) << merged.body;
  const Json& conditions = merged.json["status"]["conditions"];
  ASSERT_EQ(conditions.size(), 2u);
  EXPECT_EQ(conditions[0]["type"], "Ready");
  EXPECT_EQ(conditions[0]["status"], "True");
  EXPECT_EQ(conditions[1]["type"], "Initialized");
  // A merge patch replaces the list instead.
  HttpResult replaced = server_.Patch(
      std::string(kPod) + "/status",
      R"({"status":{"conditions":[{"type":"Ready","status":"True"}]}})",
      kMerge);
  EXPECT_EQ(replaced.json["status"]["conditions"].size(), 1u);
}

TEST_F(PatchHttpTest, StrategicDeleteDirectiveAndMissingMergeKey) {
  HttpResult added = server_.Patch(
      kPod, R"({"spec":{"containers":[{"name":"side","image":"b:1"}]}})",
      kStrategic);
  ASSERT_EQ(added.status, 200) << added.body;
  EXPECT_EQ(added.json["spec"]["containers"].size(), 2u);
  HttpResult removed = server_.Patch(
      kPod, R"({"spec":{"containers":[{"name":"side","$patch":"delete"}]}})",
      kStrategic);
  ASSERT_EQ(removed.status, 200) << removed.body;
  ASSERT_EQ(removed.json["spec"]["containers"].size(), 1u);
  EXPECT_EQ(removed.json["spec"]["containers"][0]["name"], "main");
  HttpResult keyless = server_.Patch(
      kPod, R"({"spec":{"containers":[{"image":"x"}]}})", kStrategic);
  EXPECT_EQ(keyless.status, 500);
  EXPECT_EQ(keyless.body,
            R"({"kind":"Status","apiVersion":"v1","metadata":{},)"
            R"("status":"Failure","message":"map: map[image:x] does not )"
            R"(contain declared merge key: name","code":500})"
            "\n");
}

TEST_F(PatchHttpTest, JsonPatchWithEscapedKeyOnNodeStatus) {
  server_.CreateNode("n1");
  HttpResult r = server_.Patch("/api/v1/nodes/n1/status",
                               R"([{"op":"add","path":"/status","value":{}},
          {"op":"add","path":"/status/capacity","value":{}},
          {"op":"add","path":"/status/capacity/example.com~1gpu",
           "value":"4"}])",
                               kJsonPatch);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json["status"]["capacity"]["example.com/gpu"], "4");
  HttpResult got = server_.Get("/api/v1/nodes/n1");
  EXPECT_EQ(got.json["status"]["capacity"]["example.com/gpu"], "4");
}

TEST_F(PatchHttpTest, FailingJsonPatchIs422AndAppliesNothing) {
  HttpResult r =
      server_.Patch(kPod,
                    R"([{"op":"add","path":"/metadata/labels/x","value":"1"},
          {"op":"test","path":"/metadata/labels/app","value":"zzz"}])",
                    kJsonPatch);
  EXPECT_EQ(r.status, 422);
  EXPECT_EQ(r.body,
            R"({"kind":"Status","apiVersion":"v1","metadata":{},)"
            R"("status":"Failure","message":"the server rejected our )"
            R"(request due to an error in our request","reason":"Invalid",)"
            R"("details":{},"code":422})"
            "\n");
  HttpResult got = server_.Get(kPod);
  EXPECT_EQ(got.json["metadata"]["resourceVersion"],
            pod_["metadata"]["resourceVersion"]);
  EXPECT_FALSE(got.json["metadata"]["labels"].contains("x"));
  HttpResult not_array = server_.Patch(kPod, R"({"op":"add"})", kJsonPatch);
  EXPECT_EQ(not_array.status, 400);
}

TEST_F(PatchHttpTest, UnsupportedContentTypeIs415) {
  HttpResult r = server_.Patch(kPod, R"({"metadata":{}})", "application/json");
  EXPECT_EQ(r.status, 415);
  EXPECT_EQ(r.body,
            R"({"kind":"Status","apiVersion":"v1","metadata":{},)"
            R"("status":"Failure","message":"415: Unsupported Media Type",)"
            R"("reason":"UnsupportedMediaType","details":{},"code":415})"
            "\n");
}

TEST_F(PatchHttpTest, ResourceVersionInPatchIsAPrecondition) {
  std::string current = pod_["metadata"]["resourceVersion"];
  HttpResult stale = server_.Patch(
      kPod, R"({"metadata":{"resourceVersion":"1","labels":{"x":"y"}}})",
      kMerge);
  EXPECT_EQ(stale.status, 409);
  EXPECT_EQ(stale.json["message"],
            "Operation cannot be fulfilled on pods \"p1\": the object has "
            "been modified; please apply your changes to the latest version "
            "and try again");
  EXPECT_EQ(stale.json["reason"], "Conflict");
  HttpResult fresh = server_.Patch(kPod,
                                   R"({"metadata":{"resourceVersion":")" +
                                       current + R"(","labels":{"x":"y"}}})",
                                   kStrategic);
  ASSERT_EQ(fresh.status, 200) << fresh.body;
  EXPECT_EQ(fresh.json["metadata"]["labels"]["x"], "y");
  HttpResult json_stale = server_.Patch(
      kPod, R"([{"op":"replace","path":"/metadata/resourceVersion",
                 "value":"1"}])",
      kJsonPatch);
  EXPECT_EQ(json_stale.status, 409);
}

TEST_F(PatchHttpTest, MainResourceAndStatusAreSeparate) {
  HttpResult main = server_.Patch(
      kPod,
      R"({"spec":{"activeDeadlineSeconds":5},"status":{"phase":"Running"}})",
      kMerge);
  ASSERT_EQ(main.status, 200) << main.body;
  EXPECT_EQ(main.json["spec"]["activeDeadlineSeconds"], 5);
  EXPECT_EQ(main.json["status"]["phase"], "Pending");
  HttpResult status = server_.Patch(
      std::string(kPod) + "/status",
      R"({"spec":{"activeDeadlineSeconds":9},"status":{"phase":"Running"}})",
      kMerge);
  ASSERT_EQ(status.status, 200) << status.body;
  EXPECT_EQ(status.json["spec"]["activeDeadlineSeconds"], 5);
  EXPECT_EQ(status.json["status"]["phase"], "Running");
  EXPECT_EQ(status.json["status"]["qosClass"], "BestEffort");
  // Node status works the same way.
  server_.CreateNode("n1");
  HttpResult node = server_.Patch("/api/v1/nodes/n1",
                                  R"({"spec":{"unschedulable":true},
          "status":{"capacity":{"enflame.com/gcu-count":"8"}}})",
                                  kMerge);
  ASSERT_EQ(node.status, 200);
  EXPECT_EQ(node.json["spec"]["unschedulable"], true);
  EXPECT_FALSE(node.json.contains("status") &&
               node.json["status"].contains("capacity"));
}

// As the real pods/status strategy (which resets only spec, ownerReferences
// and deletionTimestamp), labels and annotations sent to /status stick.
TEST_F(PatchHttpTest, StatusSubresourceKeepsMetadataChanges) {
  HttpResult r =
      server_.Patch(std::string(kPod) + "/status",
                    R"({"metadata":{"annotations":{"k":"v"},"ownerReferences":[
            {"apiVersion":"v1","kind":"Node","name":"n","uid":"u"}]},
          "status":{"phase":"Running"}})",
                    kStrategic);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json["metadata"]["annotations"]["k"], "v");
  EXPECT_FALSE(r.json["metadata"].contains("ownerReferences"));
  EXPECT_EQ(r.json["status"]["phase"], "Running");
}

TEST_F(PatchHttpTest, ErrorsOfEveryKind) {
  HttpResult missing = server_.Patch("/api/v1/namespaces/default/pods/zz",
                                     R"({"metadata":{}})", kMerge);
  EXPECT_EQ(missing.status, 404);
  EXPECT_EQ(missing.json["message"], "pods \"zz\" not found");
  HttpResult bad = server_.Patch(kPod, "{not json", kMerge);
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(bad.json["message"], "Invalid JSON Patch");
  HttpResult renamed =
      server_.Patch(kPod, R"({"metadata":{"name":"p2"}})", kMerge);
  EXPECT_EQ(renamed.status, 400);
  EXPECT_EQ(renamed.json["message"],
            "the name of the object (p2) does not match the name on the URL "
            "(p1)");
  HttpResult forced = server_.Patch(std::string(kPod) + "?force=true",
                                    R"({"metadata":{}})", kMerge);
  EXPECT_EQ(forced.status, 422);
}

TEST_F(PatchHttpTest, ApplyNeedsAFieldManager) {
  HttpResult r =
      server_.Patch(kPod, "metadata:\n  labels:\n    a: b\n", kApply);
  EXPECT_EQ(r.status, 422);
  EXPECT_EQ(r.body,
            R"({"kind":"Status","apiVersion":"v1","metadata":{},)"
            R"("status":"Failure","message":"PatchOptions.meta.k8s.io \"\" )"
            R"(is invalid: fieldManager: Required value: is required for )"
            R"(apply patch","reason":"Invalid","details":{"group":)"
            R"("meta.k8s.io","kind":"PatchOptions","causes":[{"reason":)"
            R"("FieldValueRequired","message":"Required value: is required )"
            R"(for apply patch","field":"fieldManager"}]},"code":422})"
            "\n");
}

TEST_F(PatchHttpTest, ApplyMergesYamlAndCreatesMissingObjects) {
  HttpResult r = server_.Patch(std::string(kPod) + "?fieldManager=test",
                               "apiVersion: v1\nkind: Pod\nmetadata:\n"
                               "  name: p1\n  labels:\n    tier: \"fe\"\n"
                               "    count: \"3\"\n",
                               kApply);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json["metadata"]["labels"],
            Json({{"app", "a"}, {"tier", "fe"}, {"count", "3"}}));
  HttpResult created =
      server_.Patch("/api/v1/nodes/n7?fieldManager=test",
                    "apiVersion: v1\nkind: Node\nmetadata:\n  name: n7\n"
                    "spec:\n  unschedulable: true\n",
                    kApply);
  ASSERT_EQ(created.status, 201) << created.body;
  EXPECT_EQ(created.json["spec"]["unschedulable"], true);
  EXPECT_FALSE(created.json["metadata"]["uid"].get<std::string>().empty());
}

}  // namespace
}  // namespace gcushare::apiserver
