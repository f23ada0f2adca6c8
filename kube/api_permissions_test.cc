#include "kube/api_permissions.h"

#include <gtest/gtest.h>

#include "kube/testing/fake_kube_client.h"

namespace gcushare::kube {
namespace {

TEST(ApiPermissionsTest, KeysAreRbacNames) {
  EXPECT_EQ(PermissionKey(Resource::Pods()), "/pods");
  EXPECT_EQ(PermissionKey(Resource::Nodes(), "status"), "/nodes/status");
  EXPECT_EQ(PermissionKey({"apps", "v1", "daemonsets", true}),
            "apps/daemonsets");
}

TEST(ApiPermissionsTest, UndeclaredCallsAreRefusedAndNotSent) {
  FakeKubeClient fake;
  ASSERT_TRUE(fake.Seed(Resource::Nodes(),
                        {{"metadata", {{"name", "n1"}}}, {"spec", {}}})
                  .ok());
  PermissionCheckingKubeClient client(
      &fake, "gcushare-test",
      {{"/nodes", {"get"}}, {"/pods/binding", {"create"}}});
  EXPECT_TRUE(client.Get(Resource::Nodes(), "", "n1").ok());
  const size_t sent = fake.actions().size();

  auto listed = client.List(Resource::Nodes(), "", {});
  ASSERT_FALSE(listed.ok());
  EXPECT_EQ(listed.status().code(), StatusCode::kPermissionDenied);
  EXPECT_NE(listed.status().message().find("\"list /nodes\""),
            std::string::npos)
      << listed.status().message();
  auto patched =
      client.Patch(Resource::Nodes(), "", "n1", PatchType::kMerge,
                   {{"metadata", {{"labels", {{"a", "b"}}}}}}, "status");
  EXPECT_EQ(patched.status().code(), StatusCode::kPermissionDenied);
  EXPECT_NE(patched.status().message().find("patch /nodes/status"),
            std::string::npos);
  EXPECT_EQ(client
                .CreateEvent("default", {"Pod", "default", "p", "u"}, "Normal",
                             "R", "m", "c")
                .status()
                .code(),
            StatusCode::kPermissionDenied);
  EXPECT_EQ(fake.actions().size(), sent);  // Nothing reached the server.

  // Declared: forwarded (the fake answers NotFound for a missing pod).
  Status bound = client.CreateBinding("default", "p", "", "n1", {});
  EXPECT_EQ(bound.code(), StatusCode::kNotFound) << bound.message();
}

}  // namespace
}  // namespace gcushare::kube
