// Bearer tokens end to end: a token file that rotates is re-read after the
// refresh interval, and at once after a 401 (the request is retried once).
#include <gtest/gtest.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/testing/fake_clock.h"
#include "kube/curl_kube_client.h"
#include "kube/testing/api_objects.h"
#include "kube/testing/scripted_server.h"
#include "testing/files.h"

namespace gcushare::kube {
namespace {

using ::gcushare::kube::testing::FailureStatus;
using ::gcushare::kube::testing::ScriptedServer;
using ::gcushare::testing::MakeTempDir;
using ::gcushare::testing::WriteFileOrDie;

class TokenTest : public ::testing::Test {
 protected:
  std::unique_ptr<CurlKubeClient> NewClient(ClientConfig config) {
    config.server = server_.url();
    KubeClientOptions options;
    options.clock = &clock_;
    options.token_refresh_interval = std::chrono::seconds(60);
    StatusOr<std::unique_ptr<CurlKubeClient>> client =
        CurlKubeClient::Create(config, options);
    EXPECT_TRUE(client.ok()) << client.status();
    return std::move(client).value();
  }

  void SetUp() override {
    server_.Handle(
        "GET", "/api/v1/nodes/n1",
        [this](const httplib::Request& request, httplib::Response& res) {
          if (request.get_header_value("Authorization") !=
              "Bearer " + valid()) {
            ScriptedServer::Json(res, 401,
                                 FailureStatus(401, "Unauthorized", "").dump());
          } else {
            ScriptedServer::Json(res, 200, R"({"metadata":{"name":"n1"}})");
          }
        });
    server_.Start();
    WriteFileOrDie(token_file_, "one\n");
  }
  ClientConfig Config() {
    ClientConfig config;
    config.token_file = token_file_;
    return config;
  }
  std::vector<std::string> SentTokens() {
    std::vector<std::string> tokens;
    for (const auto& request : server_.requests()) {
      tokens.push_back(request.Header("Authorization"));
    }
    return tokens;
  }
  void set_valid(const std::string& token) {
    std::lock_guard<std::mutex> lock(mu_);
    valid_ = token;
  }
  std::string valid() {
    std::lock_guard<std::mutex> lock(mu_);
    return valid_;
  }
  ScriptedServer server_;
  base::FakeClock clock_;
  const std::string token_file_ = MakeTempDir() + "/token";
  std::mutex mu_;
  std::string valid_ = "one";  // The token the server accepts.
};

TEST_F(TokenTest, RotatedTokenIsPickedUpAfterTheInterval) {
  auto client = NewClient(Config());
  ASSERT_TRUE(client->Get(Resource::Nodes(), "", "n1").ok());
  WriteFileOrDie(token_file_, "two\n");
  clock_.Advance(std::chrono::seconds(61));
  set_valid("two");
  ASSERT_TRUE(client->Get(Resource::Nodes(), "", "n1").ok());
  EXPECT_EQ(SentTokens(),
            (std::vector<std::string>{"Bearer one", "Bearer two"}));
}

TEST_F(TokenTest, UnauthorizedRereadsTheTokenAndRetriesOnce) {
  auto client = NewClient(Config());
  ASSERT_TRUE(client->Get(Resource::Nodes(), "", "n1").ok());
  // Rotated before the refresh interval: the server already rejects "one".
  WriteFileOrDie(token_file_, "two\n");
  set_valid("two");
  StatusOr<nlohmann::json> node = client->Get(Resource::Nodes(), "", "n1");
  ASSERT_TRUE(node.ok()) << node.status();
  EXPECT_EQ(SentTokens(), (std::vector<std::string>{"Bearer one", "Bearer one",
                                                    "Bearer two"}));
}

TEST_F(TokenTest, UnauthorizedWithAnUnchangedTokenIsReturned) {
  set_valid("something-else");
  auto client = NewClient(Config());
  StatusOr<nlohmann::json> node = client->Get(Resource::Nodes(), "", "n1");
  ASSERT_FALSE(node.ok());
  EXPECT_EQ(node.status().code(), StatusCode::kUnauthenticated);
  EXPECT_EQ(node.status().http_code(), 401);
  EXPECT_EQ(server_.requests().size(), 1u);
}

TEST_F(TokenTest, StaticTokenIsSent) {
  ClientConfig config;
  config.token = "one";
  ASSERT_TRUE(NewClient(config)->Get(Resource::Nodes(), "", "n1").ok());
  EXPECT_EQ(SentTokens(), std::vector<std::string>{"Bearer one"});
}

}  // namespace
}  // namespace gcushare::kube
