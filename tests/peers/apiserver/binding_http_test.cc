// pods/binding over real HTTP, as a scheduler extender binds.
#include <gtest/gtest.h>

#include <string>

#include "tests/peers/apiserver/testing/test_server.h"

namespace gcushare::apiserver {
namespace {

using testing::HttpResult;
using testing::TestServer;
using testing::WatchReader;

constexpr char kBinding[] = "/api/v1/namespaces/default/pods/p1/binding";

std::string Binding(const std::string& pod, const std::string& node,
                    const std::string& extra_meta = "") {
  return R"({"apiVersion":"v1","kind":"Binding","metadata":{"name":")" + pod +
         R"(")" + extra_meta +
         R"(},"target":{"apiVersion":"v1","kind":"Node","name":")" + node +
         R"("}})";
}

TEST(BindingHttpTest, BindsMergesAnnotationsAndSetsPodScheduled) {
  TestServer s;
  s.CreatePod("default", "p1");
  ASSERT_EQ(s.Patch("/api/v1/namespaces/default/pods/p1",
                    R"({"metadata":{"annotations":{"mine":"1"}}})",
                    "application/merge-patch+json")
                .status,
            200);
  WatchReader w(s.port(), "/api/v1/pods?watch=true&resourceVersion=2");
  HttpResult r = s.Post(
      kBinding, Binding("p1", "node-1",
                        R"(,"annotations":{"enflame.com/gcu-device-id":"0",)"
                        R"("enflame.com/gcu-device-assigned":"false"})"));
  EXPECT_EQ(r.status, 201);
  EXPECT_EQ(r.body, R"({"kind":"Status","apiVersion":"v1","metadata":{},)"
                    R"("status":"Success","code":201})"
                    "\n");
  HttpResult pod = s.Get("/api/v1/namespaces/default/pods/p1");
  EXPECT_EQ(pod.json["spec"]["nodeName"], "node-1");
  EXPECT_EQ(pod.json["metadata"]["annotations"],
            Json({{"mine", "1"},
                  {"enflame.com/gcu-device-id", "0"},
                  {"enflame.com/gcu-device-assigned", "false"}}));
  const Json& conditions = pod.json["status"]["conditions"];
  ASSERT_EQ(conditions.size(), 1u);
  EXPECT_EQ(conditions[0]["type"], "PodScheduled");
  EXPECT_EQ(conditions[0]["status"], "True");
  EXPECT_TRUE(conditions[0]["lastProbeTime"].is_null());
  auto e = w.Next();
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ((*e)["type"], "MODIFIED");
  EXPECT_EQ((*e)["object"]["spec"]["nodeName"], "node-1");
  EXPECT_EQ(s.Get("/api/v1/pods?fieldSelector=spec.nodeName%3Dnode-1")
                .json["items"]
                .size(),
            1u);
}

TEST(BindingHttpTest, SecondBindingIsAConflict) {
  TestServer s;
  s.CreatePod("default", "p1");
  ASSERT_EQ(s.Post(kBinding, Binding("p1", "node-1")).status, 201);
  HttpResult again = s.Post(kBinding, Binding("p1", "node-2"));
  EXPECT_EQ(again.status, 409);
  EXPECT_EQ(again.body,
            R"({"kind":"Status","apiVersion":"v1","metadata":{},)"
            R"("status":"Failure","message":"Operation cannot be fulfilled )"
            R"(on pods/binding \"p1\": pod p1 is already assigned to node )"
            R"(\"node-1\"","reason":"Conflict","details":{"name":"p1",)"
            R"("kind":"pods/binding"},"code":409})"
            "\n");
  EXPECT_EQ(
      s.Get("/api/v1/namespaces/default/pods/p1").json["spec"]["nodeName"],
      "node-1");
}

TEST(BindingHttpTest, NameUidAndExistenceChecks) {
  TestServer s;
  Json pod = s.CreatePod("default", "p1");
  HttpResult mismatch = s.Post(kBinding, Binding("p2", "n"));
  EXPECT_EQ(mismatch.status, 400);
  EXPECT_EQ(mismatch.body,
            R"({"kind":"Status","apiVersion":"v1","metadata":{},)"
            R"("status":"Failure","message":"name in URL does not match )"
            R"(name in Binding object","reason":"BadRequest","code":400})"
            "\n");
  HttpResult missing =
      s.Post("/api/v1/namespaces/default/pods/zz/binding", Binding("zz", "n"));
  EXPECT_EQ(missing.status, 404);
  EXPECT_EQ(missing.json["message"], "pods \"zz\" not found");
  HttpResult wrong_uid =
      s.Post(kBinding, Binding("p1", "n", R"(,"uid":"not-the-uid")"));
  EXPECT_EQ(wrong_uid.status, 409);
  EXPECT_EQ(wrong_uid.json["reason"], "Conflict");
  EXPECT_EQ(wrong_uid.json["message"],
            "Operation cannot be fulfilled on pods \"p1\": StorageError: "
            "invalid object, Code: 4, Key: /registry/pods/default/p1, "
            "ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: "
            "UID in precondition: not-the-uid, UID in object meta: " +
                pod["metadata"]["uid"].get<std::string>());
  HttpResult no_target = s.Post(
      kBinding, R"({"metadata":{"name":"p1"},"target":{"kind":"Node"}})");
  EXPECT_EQ(no_target.status, 500);
  EXPECT_EQ(no_target.json["message"], "target.name: Required value");
  std::string uid = pod["metadata"]["uid"];
  HttpResult right_uid =
      s.Post(kBinding, Binding("p1", "n", R"(,"uid":")" + uid + "\""));
  EXPECT_EQ(right_uid.status, 201) << right_uid.body;
}

TEST(BindingHttpTest, LegacyBindingsCollection) {
  TestServer s;
  s.CreatePod("default", "p1");
  HttpResult r =
      s.Post("/api/v1/namespaces/default/bindings", Binding("p1", "n3"));
  EXPECT_EQ(r.status, 201) << r.body;
  EXPECT_EQ(
      s.Get("/api/v1/namespaces/default/pods/p1").json["spec"]["nodeName"],
      "n3");
}

}  // namespace
}  // namespace gcushare::apiserver
