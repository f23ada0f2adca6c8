// Create, get, update, delete, list, paging and selectors over real HTTP,
// with the exact Status bodies the real server sends.
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>

#include "tests/peers/apiserver/testing/test_server.h"

namespace gcushare::apiserver {
namespace {

using testing::HttpResult;
using testing::Request;
using testing::TestServer;

constexpr char kPods[] = "/api/v1/namespaces/default/pods";

std::string PodJson(const std::string& name) {
  return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name +
         R"("},"spec":{"containers":[{"name":"c","image":"busybox:1"}]}})";
}

TEST(CrudHttpTest, CreateFillsMetadataAndAnswers201) {
  TestServer s;
  HttpResult r = s.Post(kPods, PodJson("p1"));
  ASSERT_EQ(r.status, 201) << r.body;
  EXPECT_EQ(r.content_type, "application/json");
  EXPECT_EQ(r.body.back(), '\n');
  const Json& meta = r.json["metadata"];
  EXPECT_EQ(r.json["kind"], "Pod");
  EXPECT_EQ(r.json["apiVersion"], "v1");
  EXPECT_EQ(r.json.begin().key(), "kind");  // Go struct order.
  EXPECT_EQ(meta["name"], "p1");
  EXPECT_EQ(meta["namespace"], "default");
  EXPECT_EQ(meta["resourceVersion"], "1");
  EXPECT_TRUE(std::regex_match(
      meta["uid"].get<std::string>(),
      std::regex("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-"
                 "[0-9a-f]{12}")))
      << meta["uid"];
  EXPECT_TRUE(std::regex_match(
      meta["creationTimestamp"].get<std::string>(),
      std::regex("[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z")));
  EXPECT_EQ(r.json["status"]["phase"], "Pending");
  EXPECT_EQ(r.json["status"]["qosClass"], "BestEffort");
  EXPECT_EQ(r.json["spec"]["schedulerName"], "default-scheduler");

  HttpResult got = s.Get(std::string(kPods) + "/p1");
  ASSERT_EQ(got.status, 200);
  EXPECT_EQ(got.json, r.json);
}

TEST(CrudHttpTest, CreateStatusBodiesAreTheRealOnes) {
  TestServer s;
  ASSERT_EQ(s.Post(kPods, PodJson("p1")).status, 201);
  HttpResult dup = s.Post(kPods, PodJson("p1"));
  EXPECT_EQ(dup.status, 409);
  EXPECT_EQ(dup.body,
            R"({"kind":"Status","apiVersion":"v1","metadata":{},)"
            R"("status":"Failure","message":"pods \"p1\" already exists",)"
            R"("reason":"AlreadyExists","details":{"name":"p1","kind":"pods"},)"
            R"("code":409})"
            "\n");

  HttpResult nameless = s.Post(kPods, R"({"metadata":{}})");
  EXPECT_EQ(nameless.status, 422);
  EXPECT_EQ(
      nameless.body,
      R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",)"
      R"("message":"Pod \"\" is invalid: metadata.name: Required value: name )"
      R"(or generateName is required","reason":"Invalid","details":{"kind":)"
      R"("Pod","causes":[{"reason":"FieldValueRequired","message":"Required )"
      R"(value: name or generateName is required","field":"metadata.name"}]},)"
      R"("code":422})"
      "\n");

  HttpResult malformed = s.Post(kPods, R"({"metadata":)");
  EXPECT_EQ(malformed.status, 400);
  EXPECT_EQ(malformed.json["reason"], "BadRequest");
  EXPECT_EQ(malformed.json["code"], 400);
  EXPECT_EQ(malformed.json["message"].get<std::string>().rfind(
                "the object provided is unrecognized (must be of type Pod): "
                "couldn't get version/kind; json parse error: ",
                0),
            0u)
      << malformed.body;
  EXPECT_FALSE(malformed.json.contains("details"));

  HttpResult other_ns =
      s.Post(kPods, R"({"metadata":{"name":"p2","namespace":"kube-system"}})");
  EXPECT_EQ(other_ns.status, 400);
  EXPECT_EQ(other_ns.json["message"],
            "the namespace of the provided object does not match the "
            "namespace sent on the request");

  HttpResult wrong_kind =
      s.Post(kPods, R"({"kind":"Node","metadata":{"name":"n"}})");
  EXPECT_EQ(wrong_kind.status, 400);
  EXPECT_EQ(wrong_kind.json["message"],
            "Node in version \"v1\" cannot be handled as a Pod: converting "
            "(v1.Node) to (core.Pod): unknown conversion");

  HttpResult bad_name = s.Post(kPods, R"({"metadata":{"name":"Bad_Name"}})");
  EXPECT_EQ(bad_name.status, 422);
  EXPECT_EQ(bad_name.json["details"]["causes"][0]["field"], "metadata.name");

  HttpResult with_rv =
      s.Post(kPods, R"({"metadata":{"name":"p3","resourceVersion":"5"}})");
  EXPECT_EQ(with_rv.status, 500);
  EXPECT_EQ(with_rv.json["message"],
            "resourceVersion should not be set on objects to be created");
}

TEST(CrudHttpTest, GenerateNameAndLimitsBecomeRequests) {
  TestServer s;
  HttpResult r = s.Post(kPods, R"({"metadata":{"generateName":"web-"},
      "spec":{"containers":[{"name":"c","image":"x:1","resources":{
        "limits":{"cpu":"1","memory":"1Gi","enflame.com/gcu-memory":"4"}}}]}})");
  ASSERT_EQ(r.status, 201) << r.body;
  std::string name = r.json["metadata"]["name"];
  EXPECT_TRUE(std::regex_match(name, std::regex("web-[b-z2-9]{5}"))) << name;
  const Json& res = r.json["spec"]["containers"][0]["resources"];
  EXPECT_EQ(res["requests"]["enflame.com/gcu-memory"], "4");
  EXPECT_EQ(r.json["status"]["qosClass"], "Guaranteed");
}

TEST(CrudHttpTest, GetMissingIsNotFound) {
  TestServer s;
  HttpResult r = s.Get(std::string(kPods) + "/p1");
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.body,
            R"({"kind":"Status","apiVersion":"v1","metadata":{},)"
            R"("status":"Failure","message":"pods \"p1\" not found",)"
            R"("reason":"NotFound","details":{"name":"p1","kind":"pods"},)"
            R"("code":404})"
            "\n");
  HttpResult node = s.Get("/api/v1/nodes/n9");
  EXPECT_EQ(node.json["message"], "nodes \"n9\" not found");
}

TEST(CrudHttpTest, UpdateWithResourceVersionPrecondition) {
  TestServer s;
  Json pod = s.CreatePod("default", "p1");
  pod["metadata"]["labels"] = {{"v", "2"}};
  pod["status"]["phase"] = "Running";  // Ignored on the main resource.
  HttpResult ok = s.Put(std::string(kPods) + "/p1", DumpJson(pod));
  ASSERT_EQ(ok.status, 200) << ok.body;
  EXPECT_EQ(ok.json["metadata"]["labels"]["v"], "2");
  EXPECT_EQ(ok.json["metadata"]["resourceVersion"], "2");
  EXPECT_EQ(ok.json["status"]["phase"], "Pending");
  EXPECT_EQ(ok.json["metadata"]["uid"], pod["metadata"]["uid"]);

  // `pod` still carries resourceVersion 1: stale.
  HttpResult stale = s.Put(std::string(kPods) + "/p1", DumpJson(pod));
  EXPECT_EQ(stale.status, 409);
  EXPECT_EQ(stale.body,
            R"({"kind":"Status","apiVersion":"v1","metadata":{},)"
            R"("status":"Failure","message":"Operation cannot be fulfilled )"
            R"(on pods \"p1\": the object has been modified; please apply )"
            R"(your changes to the latest version and try again",)"
            R"("reason":"Conflict","details":{"name":"p1","kind":"pods"},)"
            R"("code":409})"
            "\n");

  // Without a resourceVersion the update is unconditional.
  pod["metadata"].erase("resourceVersion");
  pod["metadata"]["labels"] = {{"v", "3"}};
  HttpResult blind = s.Put(std::string(kPods) + "/p1", DumpJson(pod));
  ASSERT_EQ(blind.status, 200) << blind.body;
  EXPECT_EQ(blind.json["metadata"]["resourceVersion"], "3");

  HttpResult renamed = s.Put(std::string(kPods) + "/p2", DumpJson(pod));
  EXPECT_EQ(renamed.status, 400);
  EXPECT_EQ(renamed.json["message"],
            "the name of the object (p1) does not match the name on the URL "
            "(p2)");
  pod["metadata"]["uid"] = "other";
  HttpResult uid = s.Put(std::string(kPods) + "/p1", DumpJson(pod));
  EXPECT_EQ(uid.status, 422);
  EXPECT_EQ(uid.json["message"],
            "Pod \"p1\" is invalid: metadata.uid: Invalid value: \"other\": "
            "field is immutable");
  HttpResult missing = s.Put(std::string(kPods) + "/zz", PodJson("zz"));
  EXPECT_EQ(missing.status, 404);
}

TEST(CrudHttpTest, PutStatusChangesOnlyStatus) {
  TestServer s;
  Json pod = s.CreatePod("default", "p1");
  pod["status"]["phase"] = "Running";
  pod["spec"]["nodeName"] = "sneaky";
  HttpResult r = s.Put(std::string(kPods) + "/p1/status", DumpJson(pod));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json["status"]["phase"], "Running");
  EXPECT_FALSE(r.json["spec"].contains("nodeName"));
}

TEST(CrudHttpTest, DeleteAnswersLikeTheRealRegistries) {
  TestServer s;
  Json pod = s.CreatePod("default", "p1");
  HttpResult r = s.Delete(std::string(kPods) + "/p1");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json["kind"], "Pod");
  EXPECT_EQ(r.json["metadata"]["uid"], pod["metadata"]["uid"]);
  EXPECT_EQ(s.Get(std::string(kPods) + "/p1").status, 404);
  EXPECT_EQ(s.Delete(std::string(kPods) + "/p1").status, 404);

  Json node = s.CreateNode("n1");
  HttpResult n = s.Delete("/api/v1/nodes/n1");
  ASSERT_EQ(n.status, 200);
  EXPECT_EQ(n.body, R"({"kind":"Status","apiVersion":"v1","metadata":{},)"
                    R"("status":"Success","details":{"name":"n1","kind":)"
                    R"("nodes","uid":")" +
                        node["metadata"]["uid"].get<std::string>() + "\"}}\n");

  s.CreatePod("default", "p2");
  HttpResult pre = s.Delete(std::string(kPods) + "/p2",
                            R"({"preconditions":{"uid":"nope"}})");
  EXPECT_EQ(pre.status, 409);
  EXPECT_EQ(pre.json["reason"], "Conflict");
  EXPECT_EQ(pre.json["details"]["kind"], "Pod");
  EXPECT_EQ(s.Get(std::string(kPods) + "/p2").status, 200);
}

TEST(CrudHttpTest, ListShapeAndOrder) {
  TestServer s;
  s.CreatePod("b", "p2");
  s.CreatePod("a", "p9");
  s.CreatePod("b", "p1");
  s.CreateNode("n1");
  HttpResult all = s.Get("/api/v1/pods");
  ASSERT_EQ(all.status, 200);
  EXPECT_EQ(all.json["kind"], "PodList");
  EXPECT_EQ(all.json["apiVersion"], "v1");
  EXPECT_EQ(all.json["metadata"]["resourceVersion"], "4");
  EXPECT_FALSE(all.json["metadata"].contains("continue"));
  ASSERT_EQ(all.json["items"].size(), 3u);
  std::vector<std::string> order;
  for (const Json& item : all.json["items"]) {
    EXPECT_FALSE(item.contains("kind"));  // List items carry no TypeMeta.
    EXPECT_FALSE(item.contains("apiVersion"));
    order.push_back(item["metadata"]["namespace"].get<std::string>() + "/" +
                    item["metadata"]["name"].get<std::string>());
  }
  EXPECT_EQ(order, (std::vector<std::string>{"a/p9", "b/p1", "b/p2"}));
  HttpResult ns = s.Get("/api/v1/namespaces/b/pods");
  EXPECT_EQ(ns.json["items"].size(), 2u);
  HttpResult nodes = s.Get("/api/v1/nodes");
  EXPECT_EQ(nodes.json["kind"], "NodeList");
  EXPECT_EQ(nodes.json["items"].size(), 1u);
}

TEST(CrudHttpTest, SelectorsFilterLists) {
  TestServer s;
  s.CreatePod("default", "a1", {{"app", "a"}, {"tier", "fe"}}, "n1");
  s.CreatePod("default", "a2", {{"app", "a"}, {"tier", "be"}});
  s.CreatePod("default", "b1", {{"app", "b"}}, "n1");
  auto names = [&](const std::string& query) {
    HttpResult r = s.Get("/api/v1/pods?" + query);
    EXPECT_EQ(r.status, 200) << query << ": " << r.body;
    std::vector<std::string> out;
    for (const Json& item : r.json["items"]) {
      out.push_back(item["metadata"]["name"]);
    }
    return out;
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(names("labelSelector=app%3Da"), (V{"a1", "a2"}));
  EXPECT_EQ(names("labelSelector=app%3Da,tier!%3Dfe"), (V{"a2"}));
  EXPECT_EQ(names("labelSelector=tier"), (V{"a1", "a2"}));
  EXPECT_EQ(names("labelSelector=!tier"), (V{"b1"}));
  EXPECT_EQ(names("labelSelector=tier%20in%20(fe,db)"), (V{"a1"}));
  EXPECT_EQ(names("labelSelector=tier%20notin%20(fe)"), (V{"a2", "b1"}));
  EXPECT_EQ(names("fieldSelector=spec.nodeName%3Dn1"), (V{"a1", "b1"}));
  EXPECT_EQ(names("fieldSelector=spec.nodeName%3D"), (V{"a2"}));
  EXPECT_EQ(names("fieldSelector=spec.nodeName%3Dn1&labelSelector=app%3Db"),
            (V{"b1"}));
  EXPECT_EQ(names("fieldSelector=metadata.name%3Da2"), (V{"a2"}));
  EXPECT_EQ(names("fieldSelector=status.phase%3DPending"),
            (V{"a1", "a2", "b1"}));

  HttpResult unknown = s.Get("/api/v1/pods?fieldSelector=spec.foo%3Dx");
  EXPECT_EQ(unknown.status, 400);
  EXPECT_EQ(unknown.body,
            R"({"kind":"Status","apiVersion":"v1","metadata":{},)"
            R"("status":"Failure","message":"field label not supported: )"
            R"(spec.foo","reason":"BadRequest","code":400})"
            "\n");
  EXPECT_EQ(s.Get("/api/v1/pods?labelSelector=a%20in").status, 400);

  s.CreateNode("n1");
  Json cordoned = {{"metadata", {{"name", "n2"}}},
                   {"spec", {{"unschedulable", true}}}};
  ASSERT_EQ(s.Post("/api/v1/nodes", DumpJson(cordoned)).status, 201);
  HttpResult nodes =
      s.Get("/api/v1/nodes?fieldSelector=spec.unschedulable%3Dfalse");
  ASSERT_EQ(nodes.json["items"].size(), 1u);
  EXPECT_EQ(nodes.json["items"][0]["metadata"]["name"], "n1");
}

TEST(CrudHttpTest, EventsAreServedWithTheirFieldSelectors) {
  TestServer s;
  std::string event = R"({"metadata":{"name":"e1"},
      "involvedObject":{"kind":"Pod","name":"p1","namespace":"default"},
      "reason":"Scheduled","type":"Normal",
      "source":{"component":"default-scheduler"}})";
  ASSERT_EQ(s.Post("/api/v1/namespaces/default/events", event).status, 201);
  HttpResult r = s.Get(
      "/api/v1/events?fieldSelector=involvedObject.name%3Dp1,reason%3D"
      "Scheduled,source%3Ddefault-scheduler");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json["kind"], "EventList");
  EXPECT_EQ(r.json["items"].size(), 1u);
  EXPECT_EQ(
      s.Get("/api/v1/events?fieldSelector=type%3DWarning").json["items"].size(),
      0u);
}

TEST(CrudHttpTest, PagingIsConsistentAcrossPages) {
  TestServer s;
  for (int i = 0; i < 5; ++i) s.CreatePod("default", "p" + std::to_string(i));
  HttpResult first = s.Get("/api/v1/pods?limit=2");
  ASSERT_EQ(first.status, 200);
  ASSERT_EQ(first.json["items"].size(), 2u);
  EXPECT_EQ(first.json["metadata"]["remainingItemCount"], 3);
  std::string rv = first.json["metadata"]["resourceVersion"];
  std::string token = first.json["metadata"]["continue"];
  ASSERT_FALSE(token.empty());
  // Writes between pages do not show up in the paged list.
  s.CreatePod("default", "p10");
  std::set<std::string> seen;
  for (const Json& item : first.json["items"])
    seen.insert(item["metadata"]["name"]);
  while (!token.empty()) {
    HttpResult page = s.Get("/api/v1/pods?limit=2&continue=" + token);
    ASSERT_EQ(page.status, 200) << page.body;
    EXPECT_EQ(page.json["metadata"]["resourceVersion"], rv);
    for (const Json& item : page.json["items"]) {
      EXPECT_TRUE(seen.insert(item["metadata"]["name"]).second);
    }
    token = page.json["metadata"].value("continue", "");
  }
  EXPECT_EQ(seen, (std::set<std::string>{"p0", "p1", "p2", "p3", "p4"}));
  EXPECT_EQ(s.Get("/api/v1/pods?continue=%21%21").status, 400);
}

TEST(CrudHttpTest, ContinueFromAnExpiredSnapshotIs410) {
  ServerOptions options;
  options.history = 2;
  TestServer s(options);
  for (int i = 0; i < 3; ++i) s.CreatePod("default", "p" + std::to_string(i));
  HttpResult first = s.Get("/api/v1/pods?limit=1");
  std::string token = first.json["metadata"]["continue"];
  for (int i = 3; i < 6; ++i) s.CreatePod("default", "p" + std::to_string(i));
  HttpResult expired = s.Get("/api/v1/pods?limit=1&continue=" + token);
  EXPECT_EQ(expired.status, 410);
  EXPECT_EQ(expired.json["reason"], "Expired");
  std::string fresh = expired.json["metadata"]["continue"];
  ASSERT_FALSE(fresh.empty());
  // The new token continues from the current state.
  HttpResult rest = s.Get("/api/v1/pods?continue=" + fresh);
  ASSERT_EQ(rest.status, 200);
  EXPECT_EQ(rest.json["items"].size(), 5u);  // p1..p5, after p0.
}

TEST(CrudHttpTest, ResourceVersionSemanticsOfLists) {
  TestServer s;
  for (int i = 0; i < 3; ++i) s.CreatePod("default", "p" + std::to_string(i));
  // RV 0 is served from the "cache": limit is ignored.
  HttpResult cached = s.Get("/api/v1/pods?resourceVersion=0&limit=1");
  EXPECT_EQ(cached.json["items"].size(), 3u);
  HttpResult exact =
      s.Get("/api/v1/pods?resourceVersion=1&resourceVersionMatch=Exact");
  ASSERT_EQ(exact.status, 200) << exact.body;
  EXPECT_EQ(exact.json["metadata"]["resourceVersion"], "1");
  EXPECT_EQ(exact.json["items"].size(), 1u);
  HttpResult future = s.Get("/api/v1/pods?resourceVersion=99");
  EXPECT_EQ(future.status, 504);
  EXPECT_EQ(future.json["message"],
            "Timeout: Too large resource version: 99, current: 3");
  EXPECT_EQ(future.json["details"]["causes"][0]["reason"],
            "ResourceVersionTooLarge");
  HttpResult forbidden = s.Get("/api/v1/pods?resourceVersionMatch=Exact");
  EXPECT_EQ(forbidden.status, 422);
  EXPECT_EQ(forbidden.json["message"],
            "ListOptions.meta.k8s.io \"\" is invalid: resourceVersionMatch: "
            "Forbidden: resourceVersionMatch is forbidden unless "
            "resourceVersion is provided");
}

TEST(CrudHttpTest, UnknownPathsAndMethods) {
  TestServer s;
  HttpResult r = s.Get("/api/v1/configmaps");
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(r.body,
            R"({"kind":"Status","apiVersion":"v1","metadata":{},)"
            R"("status":"Failure","message":"the server could not find the )"
            R"(requested resource","reason":"NotFound","details":{},)"
            R"("code":404})"
            "\n");
  EXPECT_EQ(s.Get("/apis/apps/v1/deployments").status, 404);
  EXPECT_EQ(s.Get("/api/v1/namespaces/default/pods/p1/exec").status, 404);
  HttpResult m = s.Post("/api/v1/pods", PodJson("x"));
  EXPECT_EQ(m.status, 405);
  EXPECT_EQ(m.json["reason"], "MethodNotAllowed");
  EXPECT_EQ(s.Delete(kPods).status, 405);
  // Dry runs are refused rather than performed for real.
  EXPECT_EQ(s.Post(std::string(kPods) + "?dryRun=All", PodJson("d")).status,
            400);
  EXPECT_EQ(s.Get(std::string(kPods) + "/d").status, 404);
}

TEST(CrudHttpTest, VersionAndHealth) {
  TestServer s;
  HttpResult v = s.Get("/version");
  ASSERT_EQ(v.status, 200);
  EXPECT_EQ(v.json["gitVersion"], "v1.31.0");
  EXPECT_EQ(v.json["major"], "1");
  EXPECT_EQ(v.json["minor"], "31");
  for (const char* path : {"/healthz", "/readyz", "/livez"}) {
    HttpResult h = s.Get(path);
    EXPECT_EQ(h.status, 200);
    EXPECT_EQ(h.body, "ok");
  }
}

TEST(CrudHttpTest, BearerTokenIsRequiredWhenConfigured) {
  ServerOptions options;
  options.token = "s3cret";
  TestServer s(options);
  HttpResult none = s.Get("/api/v1/pods");
  EXPECT_EQ(none.status, 401);
  EXPECT_EQ(none.body, R"({"kind":"Status","apiVersion":"v1","metadata":{},)"
                       R"("status":"Failure","message":"Unauthorized",)"
                       R"("reason":"Unauthorized","code":401})"
                       "\n");
  EXPECT_EQ(Request(s.port(), "GET", "/api/v1/pods", "", "", "wrong").status,
            401);
  HttpResult ok = Request(s.port(), "GET", "/api/v1/pods", "", "", "s3cret");
  EXPECT_EQ(ok.status, 200);
  EXPECT_EQ(Request(s.port(), "POST", kPods, PodJson("p"), "application/json",
                    "s3cret")
                .status,
            201);
}

}  // namespace
}  // namespace gcushare::apiserver
