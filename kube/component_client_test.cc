// ComponentClient: calls inside the component's permissions reach the API
// server of the config (given, or resolved from --kubeconfig); calls outside
// them fail before any request is sent.
#include "kube/component_client.h"

#include <gtest/gtest.h>

#include <string>

#include "kube/json_fields.h"
#include "kube/testing/api_objects.h"
#include "kube/testing/scripted_server.h"
#include "testing/files.h"

namespace gcushare::kube {
namespace {

using ::gcushare::kube::testing::Pod;
using ::gcushare::kube::testing::ScriptedServer;

const ApiPermissions kReadPods = {{"/pods", {"get"}}};

class ComponentClientTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_.Handle(
        "GET", "/version", [](const httplib::Request&, httplib::Response& res) {
          ScriptedServer::Json(
              res, 200, R"({"major":"1","minor":"26","gitVersion":"v1.26.4"})");
        });
    server_.Handle("GET", "/api/v1/namespaces/ns1/pods/p1",
                   [](const httplib::Request&, httplib::Response& res) {
                     ScriptedServer::Json(res, 200,
                                          Pod("ns1", "p1", "7").dump());
                   });
    server_.Start();
  }

  std::unique_ptr<ComponentClient> Connect() {
    ClientConfig config;
    config.server = server_.url();
    StatusOr<std::unique_ptr<ComponentClient>> client =
        ComponentClient::Connect(config, "gcushare-test", kReadPods);
    EXPECT_TRUE(client.ok()) << client.status();
    return client.ok() ? std::move(client).value() : nullptr;
  }

  ScriptedServer server_;
};

TEST_F(ComponentClientTest, AllowedCallsReachTheServer) {
  std::unique_ptr<ComponentClient> client = Connect();
  ASSERT_NE(client, nullptr);
  EXPECT_EQ(client->server(), server_.url());
  StatusOr<nlohmann::json> pod =
      client->api()->Get(Resource::Pods(), "ns1", "p1");
  ASSERT_TRUE(pod.ok()) << pod.status();
  EXPECT_EQ(ResourceVersionOf(*pod), "7");
  EXPECT_EQ(server_.requests().size(), 1u);
}

TEST_F(ComponentClientTest, ServerVersionNeedsNoPermission) {
  std::unique_ptr<ComponentClient> client = Connect();
  ASSERT_NE(client, nullptr);
  StatusOr<ServerVersion> version = client->GetServerVersion();
  ASSERT_TRUE(version.ok()) << version.status();
  EXPECT_EQ(version->major, 1);
  EXPECT_EQ(version->minor, 26);
  EXPECT_EQ(server_.requests().size(), 1u);
}

TEST_F(ComponentClientTest, CallsOutsideThePermissionsAreNeverSent) {
  std::unique_ptr<ComponentClient> client = Connect();
  ASSERT_NE(client, nullptr);
  Status deleted =
      client->api()->Delete(Resource::Pods(), "ns1", "p1", DeleteOptions{});
  EXPECT_EQ(deleted.code(), StatusCode::kPermissionDenied) << deleted;
  EXPECT_NE(deleted.message().find("gcushare-test"), std::string::npos)
      << deleted;
  EXPECT_TRUE(server_.requests().empty());
}

TEST_F(ComponentClientTest, ConnectFromFlagReadsTheKubeconfig) {
  const std::string path = gcushare::testing::MakeTempDir() + "/kubeconfig";
  gcushare::testing::WriteFileOrDie(
      path,
      "apiVersion: v1\nkind: Config\n"
      "clusters: [{name: c, cluster: {server: \"" +
          server_.url() +
          "\"}}]\n"
          "users: [{name: u, user: {token: t}}]\n"
          "contexts: [{name: x, context: {cluster: c, user: u}}]\n"
          "current-context: x\n");
  StatusOr<std::unique_ptr<ComponentClient>> client =
      ComponentClient::ConnectFromFlag(path, "gcushare-test", kReadPods);
  ASSERT_TRUE(client.ok()) << client.status();
  EXPECT_EQ((*client)->server(), server_.url());
  EXPECT_TRUE((*client)->api()->Get(Resource::Pods(), "ns1", "p1").ok());
}

TEST_F(ComponentClientTest, ConnectFromFlagFailsOnAMissingKubeconfig) {
  const std::string path = gcushare::testing::MakeTempDir() + "/missing";
  StatusOr<std::unique_ptr<ComponentClient>> client =
      ComponentClient::ConnectFromFlag(path, "gcushare-test", kReadPods);
  ASSERT_FALSE(client.ok());
  EXPECT_NE(client.status().message().find(path), std::string::npos)
      << client.status();
}

}  // namespace
}  // namespace gcushare::kube
