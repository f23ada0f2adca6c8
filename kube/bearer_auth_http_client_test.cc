#include "kube/bearer_auth_http_client.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gcushare::kube {
namespace {

// Answers 401 unless the request carries "Bearer <accepted>".
class TokenCheckingServer : public HttpClient {
 public:
  HttpResult Send(const HttpRequest& request) override {
    seen.push_back(request.Header("Authorization"));
    if (on_send) on_send();
    HttpResult result;
    result.response.status_code =
        request.Header("Authorization") == "Bearer " + accepted ? 200 : 401;
    return result;
  }
  std::string accepted;
  std::vector<std::string> seen;
  std::function<void()> on_send;
};

// Like a token file: `token` is the file, `refreshed` what was read last
// (and is sent); Refresh() re-reads and says whether it changed.
class SettableTokens : public TokenSource {
 public:
  StatusOr<std::string> Token() override { return refreshed; }
  bool Refresh() override {
    bool changed = token != refreshed;
    refreshed = token;
    return changed;
  }
  std::string token, refreshed;
};

TEST(BearerAuthHttpClientTest, AddsTheTokenAndRetriesOnceAfterARotation) {
  TokenCheckingServer server;
  SettableTokens tokens;
  tokens.token = tokens.refreshed = "one";
  BearerAuthHttpClient client(&server, &tokens);
  server.accepted = "one";
  EXPECT_EQ(client.Send({}).response.status_code, 200);

  server.accepted = "two";
  tokens.token = "two";  // Rotated on disk; not yet re-read.
  HttpResult result = client.Send({});
  EXPECT_EQ(result.response.status_code, 200);
  EXPECT_EQ(server.seen, (std::vector<std::string>{"Bearer one", "Bearer one",
                                                   "Bearer two"}));
}

TEST(BearerAuthHttpClientTest, NoRetryWhenTheTokenIsUnchanged) {
  TokenCheckingServer server;
  SettableTokens tokens;
  tokens.token = tokens.refreshed = "one";
  server.accepted = "other";
  BearerAuthHttpClient client(&server, &tokens);
  EXPECT_EQ(client.Send({}).response.status_code, 401);
  EXPECT_EQ(server.seen.size(), 1u);
}

TEST(BearerAuthHttpClientTest, RetriesWhenAConcurrentRequestAlreadyReread) {
  TokenCheckingServer server;
  SettableTokens tokens;
  tokens.token = tokens.refreshed = "one";
  server.accepted = "two";
  BearerAuthHttpClient client(&server, &tokens);
  // While this request is on the wire with "one", another thread's 401
  // re-reads the rotated token: this request's Refresh() sees no change.
  server.on_send = [&] {
    server.on_send = nullptr;
    tokens.token = "two";
    EXPECT_TRUE(tokens.Refresh());
  };
  EXPECT_EQ(client.Send({}).response.status_code, 200);
  EXPECT_EQ(server.seen,
            (std::vector<std::string>{"Bearer one", "Bearer two"}));
}

}  // namespace
}  // namespace gcushare::kube
