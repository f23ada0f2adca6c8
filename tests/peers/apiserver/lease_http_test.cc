// coordination.k8s.io/v1 Leases over real HTTP, and the named-group routing
// they share with every /apis kind: CRUD, optimistic concurrency, watch, the
// group in Status bodies, 404s for unknown groups, versions and resources.
#include <gtest/gtest.h>

#include <string>

#include "tests/peers/apiserver/testing/test_server.h"

namespace gcushare::apiserver {
namespace {

using testing::HttpResult;
using testing::TestServer;
using testing::WatchReader;

constexpr char kLeases[] = "/apis/coordination.k8s.io/v1/namespaces/ha/leases";

std::string LeaseJson(const std::string& name, const std::string& holder,
                      const std::string& rv = "",
                      const std::string& renew = "03:04:05.123456") {
  Json lease = {{"apiVersion", "coordination.k8s.io/v1"},
                {"kind", "Lease"},
                {"metadata", {{"name", name}}},
                {"spec",
                 {{"holderIdentity", holder},
                  {"leaseDurationSeconds", 15},
                  {"acquireTime", "2026-01-02T03:04:05.000000Z"},
                  {"renewTime", "2026-01-02T" + renew + "Z"},
                  {"leaseTransitions", 0}}}};
  if (!rv.empty()) lease["metadata"]["resourceVersion"] = rv;
  return lease.dump();
}

TEST(LeaseHttpTest, CreateGetListKeepTheSpecAndTheGroup) {
  TestServer s;
  HttpResult created = s.Post(kLeases, LeaseJson("leader", "a"));
  ASSERT_EQ(created.status, 201) << created.body;
  EXPECT_EQ(created.json["apiVersion"], "coordination.k8s.io/v1");
  EXPECT_EQ(created.json["kind"], "Lease");
  EXPECT_EQ(created.json["metadata"]["namespace"], "ha");
  EXPECT_FALSE(created.json["metadata"].contains("generation"));
  EXPECT_EQ(created.json["spec"]["renewTime"], "2026-01-02T03:04:05.123456Z");
  EXPECT_EQ(created.json["spec"]["holderIdentity"], "a");

  HttpResult got = s.Get(std::string(kLeases) + "/leader");
  ASSERT_EQ(got.status, 200);
  EXPECT_EQ(got.json, created.json);

  HttpResult list = s.Get(kLeases);
  ASSERT_EQ(list.status, 200);
  EXPECT_EQ(list.json["kind"], "LeaseList");
  EXPECT_EQ(list.json["apiVersion"], "coordination.k8s.io/v1");
  ASSERT_EQ(list.json["items"].size(), 1u);
  // Items of a typed list carry no kind and apiVersion, as real.
  Json item = created.json;
  item.erase("kind");
  item.erase("apiVersion");
  EXPECT_EQ(list.json["items"][0], item);

  HttpResult all = s.Get("/apis/coordination.k8s.io/v1/leases");
  ASSERT_EQ(all.status, 200);
  EXPECT_EQ(all.json["items"].size(), 1u);
  HttpResult other_ns =
      s.Get("/apis/coordination.k8s.io/v1/namespaces/x/leases");
  EXPECT_EQ(other_ns.json["items"].size(), 0u);
}

TEST(LeaseHttpTest, StaleResourceVersionIsAConflict) {
  TestServer s;
  HttpResult created = s.Post(kLeases, LeaseJson("leader", "a"));
  ASSERT_EQ(created.status, 201);
  const std::string rv = created.json["metadata"]["resourceVersion"];
  HttpResult renewed = s.Put(std::string(kLeases) + "/leader",
                             LeaseJson("leader", "a", rv, "03:04:15.000000"));
  ASSERT_EQ(renewed.status, 200) << renewed.body;
  EXPECT_NE(renewed.json["metadata"]["resourceVersion"], rv);

  // A second candidate still holding the old resourceVersion loses.
  HttpResult stale =
      s.Put(std::string(kLeases) + "/leader", LeaseJson("leader", "b", rv));
  EXPECT_EQ(stale.status, 409);
  EXPECT_EQ(
      stale.body,
      R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",)"
      R"("message":"Operation cannot be fulfilled on leases.coordination.k8s.io )"
      R"(\"leader\": the object has been modified; please apply your changes )"
      R"(to the latest version and try again","reason":"Conflict","details":)"
      R"({"name":"leader","group":"coordination.k8s.io","kind":"leases"},)"
      R"("code":409})"
      "\n");
  EXPECT_EQ(
      s.Get(std::string(kLeases) + "/leader").json["spec"]["holderIdentity"],
      "a");

  HttpResult dup = s.Post(kLeases, LeaseJson("leader", "b"));
  EXPECT_EQ(dup.status, 409);
  EXPECT_EQ(dup.json["reason"], "AlreadyExists");
  EXPECT_EQ(dup.json["message"],
            "leases.coordination.k8s.io \"leader\" already exists");
}

TEST(LeaseHttpTest, MergePatchAndDelete) {
  TestServer s;
  ASSERT_EQ(s.Post(kLeases, LeaseJson("leader", "a")).status, 201);
  HttpResult patched =
      s.Patch(std::string(kLeases) + "/leader",
              R"({"spec":{"holderIdentity":"b","leaseTransitions":1}})",
              "application/merge-patch+json");
  ASSERT_EQ(patched.status, 200) << patched.body;
  EXPECT_EQ(patched.json["apiVersion"], "coordination.k8s.io/v1");
  EXPECT_EQ(patched.json["spec"]["holderIdentity"], "b");
  EXPECT_EQ(patched.json["spec"]["leaseTransitions"], 1);

  HttpResult deleted = s.Delete(std::string(kLeases) + "/leader");
  ASSERT_EQ(deleted.status, 200) << deleted.body;
  EXPECT_EQ(deleted.json["kind"], "Status");
  EXPECT_EQ(deleted.json["status"], "Success");
  EXPECT_EQ(deleted.json["details"]["group"], "coordination.k8s.io");
  EXPECT_EQ(deleted.json["details"]["kind"], "leases");
  HttpResult gone = s.Get(std::string(kLeases) + "/leader");
  EXPECT_EQ(gone.status, 404);
  EXPECT_EQ(gone.json["message"],
            "leases.coordination.k8s.io \"leader\" not found");
  EXPECT_EQ(gone.json["details"]["group"], "coordination.k8s.io");
}

TEST(LeaseHttpTest, InvalidSpecIs422WithTheGroup) {
  TestServer s;
  HttpResult bad = s.Post(
      kLeases, R"({"metadata":{"name":"l"},"spec":{"leaseDurationSeconds":0,)"
               R"("leaseTransitions":-1}})");
  EXPECT_EQ(bad.status, 422);
  EXPECT_EQ(bad.json["message"],
            "Lease.coordination.k8s.io \"l\" is invalid: "
            "[spec.leaseDurationSeconds: Invalid value: 0: must be greater "
            "than 0, spec.leaseTransitions: Invalid value: -1: must be "
            "greater than or equal to 0]");
  EXPECT_EQ(bad.json["details"]["group"], "coordination.k8s.io");
  EXPECT_EQ(bad.json["details"]["kind"], "Lease");

  HttpResult wrong_version = s.Post(
      kLeases,
      R"({"apiVersion":"coordination.k8s.io/v1beta1","metadata":{"name":"l"}})");
  EXPECT_EQ(wrong_version.status, 400);
  EXPECT_EQ(wrong_version.json["message"],
            "the API version in the data (coordination.k8s.io/v1beta1) does "
            "not match the expected API version (coordination.k8s.io/v1)");
}

TEST(LeaseHttpTest, WatchSeesRenewals) {
  TestServer s;
  HttpResult created = s.Post(kLeases, LeaseJson("leader", "a"));
  ASSERT_EQ(created.status, 201);
  WatchReader w(
      s.port(),
      std::string(kLeases) +
          "?watch=true&fieldSelector=metadata.name%3D"
          "leader&resourceVersion=" +
          created.json["metadata"]["resourceVersion"].get<std::string>());
  ASSERT_EQ(w.status(), 200);
  ASSERT_EQ(s.Patch(std::string(kLeases) + "/leader",
                    R"({"spec":{"renewTime":"2026-01-02T03:04:20.000000Z"}})",
                    "application/merge-patch+json")
                .status,
            200);
  auto event = w.Next();
  ASSERT_TRUE(event.has_value());
  EXPECT_EQ((*event)["type"], "MODIFIED");
  EXPECT_EQ((*event)["object"]["apiVersion"], "coordination.k8s.io/v1");
  EXPECT_EQ((*event)["object"]["spec"]["renewTime"],
            "2026-01-02T03:04:20.000000Z");

  // The legacy watch path exists for named groups too.
  WatchReader legacy(s.port(),
                     "/apis/coordination.k8s.io/v1/watch/namespaces/ha/leases");
  EXPECT_EQ(legacy.status(), 200);
  auto added = legacy.Next();
  ASSERT_TRUE(added.has_value());
  EXPECT_EQ((*added)["type"], "ADDED");
}

TEST(LeaseHttpTest, UnknownGroupsVersionsAndResourcesAre404) {
  TestServer s;
  for (const char* path :
       {"/apis/coordination.k8s.io/v1beta1/namespaces/ha/leases",
        "/apis/unknown.example.com/v1/things",
        "/apis/coordination.k8s.io/v1/namespaces/ha/widgets",
        "/apis/coordination.k8s.io/v1/namespaces/ha/leases/l/status",
        "/apis/coordination.k8s.io/v1/leases/l",
        "/apis/coordination.k8s.io/v1/namespaces/ha/pods",
        "/api/v1/namespaces/ha/leases"}) {
    HttpResult r = s.Get(path);
    EXPECT_EQ(r.status, 404) << path;
    EXPECT_EQ(r.json["message"],
              "the server could not find the requested resource")
        << path;
  }
}

TEST(LeaseHttpTest, VersionFollowsTheOption) {
  ServerOptions options;
  options.kube_version = "v1.36.3";
  TestServer s(options);
  HttpResult r = s.Get("/version");
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(r.json["gitVersion"], "v1.36.3");
  EXPECT_EQ(r.json["major"], "1");
  EXPECT_EQ(r.json["minor"], "36");
  EXPECT_EQ(r.json["emulationMinor"], "36");
  EXPECT_EQ(r.json["minCompatibilityMinor"], "35");

  TestServer old;
  HttpResult d = old.Get("/version");
  EXPECT_EQ(d.json["gitVersion"], "v1.31.0");
  EXPECT_EQ(d.json["minor"], "31");
  EXPECT_FALSE(d.json.contains("emulationMinor"));

  ServerOptions bad;
  bad.kube_version = "1.36";
  EXPECT_FALSE(ApiServer::Create(bad).ok());
}

}  // namespace
}  // namespace gcushare::apiserver
