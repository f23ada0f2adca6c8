#include "kube/retrying_http_client.h"

#include <gtest/gtest.h>

#include <atomic>
#include <string>

#include "base/testing/fake_clock.h"
#include "kube/curl_http_client.h"
#include "kube/testing/api_objects.h"
#include "kube/testing/scripted_server.h"

namespace gcushare::kube {
namespace {

using ::gcushare::kube::testing::ChunkFeed;
using ::gcushare::kube::testing::FailureStatus;
using ::gcushare::kube::testing::ScriptedServer;
using std::chrono::milliseconds;
using std::chrono::nanoseconds;
using std::chrono::seconds;

class RetryingHttpClientTest : public ::testing::Test {
 protected:
  RetryingHttpClientTest() {
    options_.max_attempts = 4;
    options_.backoff = {milliseconds(100), milliseconds(1000), 2.0, 0.0};
  }

  HttpResult Send(const std::string& method, const std::string& path) {
    RetryingHttpClient client(&curl_, &clock_, options_);
    HttpRequest request;
    request.method = method;
    request.url = server_.url() + path;
    if (method == "POST") request.body = "{}";
    return client.Send(request);
  }

  ScriptedServer server_;
  CurlHttpClient curl_{TlsConfig{}};
  base::FakeClock clock_;
  RetryOptions options_;
};

TEST_F(RetryingHttpClientTest, ServiceUnavailableThenSuccess) {
  std::atomic<int> calls{0};
  server_.Handle(
      "GET", "/flaky", [&](const httplib::Request&, httplib::Response& res) {
        if (calls++ == 0) {
          ScriptedServer::Json(
              res, 503,
              FailureStatus(503, "ServiceUnavailable", "busy").dump());
        } else {
          ScriptedServer::Json(res, 200, "{\"ok\":1}");
        }
      });
  server_.Start();
  HttpResult result = Send("GET", "/flaky");
  ASSERT_TRUE(result.status.ok()) << result.status;
  EXPECT_EQ(result.response.status_code, 200);
  EXPECT_EQ(calls.load(), 2);
  EXPECT_EQ(clock_.sleeps(), std::vector<nanoseconds>{milliseconds(100)});
}

TEST_F(RetryingHttpClientTest, TooManyRequestsHonoursRetryAfter) {
  std::atomic<int> calls{0};
  server_.Handle(
      "GET", "/busy", [&](const httplib::Request&, httplib::Response& res) {
        if (calls++ == 0) {
          res.set_header("Retry-After", "7");
          ScriptedServer::Json(
              res, 429, FailureStatus(429, "TooManyRequests", "slow").dump());
        } else {
          ScriptedServer::Json(res, 200, "{}");
        }
      });
  server_.Start();
  HttpResult result = Send("GET", "/busy");
  ASSERT_TRUE(result.status.ok()) << result.status;
  EXPECT_EQ(result.response.status_code, 200);
  EXPECT_EQ(calls.load(), 2);
  EXPECT_EQ(clock_.sleeps(), std::vector<nanoseconds>{seconds(7)});
}

TEST_F(RetryingHttpClientTest, RetryAfterSecondsInTheStatusDetails) {
  std::atomic<int> calls{0};
  server_.Handle(
      "GET", "/busy", [&](const httplib::Request&, httplib::Response& res) {
        if (calls++ == 0) {
          nlohmann::json status = FailureStatus(429, "TooManyRequests", "slow");
          status["details"] = {{"retryAfterSeconds", 3}};
          ScriptedServer::Json(res, 429, status.dump());
        } else {
          ScriptedServer::Json(res, 200, "{}");
        }
      });
  server_.Start();
  ASSERT_TRUE(Send("GET", "/busy").status.ok());
  EXPECT_EQ(clock_.sleeps(), std::vector<nanoseconds>{seconds(3)});
}

TEST_F(RetryingHttpClientTest, RetryAfterIsCapped) {
  options_.max_retry_after = seconds(10);
  std::atomic<int> calls{0};
  server_.Handle("GET", "/busy",
                 [&](const httplib::Request&, httplib::Response& res) {
                   if (calls++ == 0) {
                     res.set_header("Retry-After", "3600");
                     ScriptedServer::Json(res, 429, "{}");
                   } else {
                     ScriptedServer::Json(res, 200, "{}");
                   }
                 });
  server_.Start();
  ASSERT_TRUE(Send("GET", "/busy").status.ok());
  EXPECT_EQ(clock_.sleeps(), std::vector<nanoseconds>{seconds(10)});
}

TEST_F(RetryingHttpClientTest, NotFoundIsNotRetried) {
  std::atomic<int> calls{0};
  server_.Handle("GET", "/missing",
                 [&](const httplib::Request&, httplib::Response& res) {
                   ++calls;
                   ScriptedServer::Json(
                       res, 404, FailureStatus(404, "NotFound", "nope").dump());
                 });
  server_.Start();
  HttpResult result = Send("GET", "/missing");
  ASSERT_TRUE(result.status.ok());
  EXPECT_EQ(result.response.status_code, 404);
  EXPECT_EQ(calls.load(), 1);
  EXPECT_TRUE(clock_.sleeps().empty());
}

TEST_F(RetryingHttpClientTest, PersistentFailureStopsAfterMaxAttempts) {
  std::atomic<int> calls{0};
  server_.Handle("GET", "/down",
                 [&](const httplib::Request&, httplib::Response& res) {
                   ++calls;
                   ScriptedServer::Json(res, 500, "oops");
                 });
  server_.Start();
  HttpResult result = Send("GET", "/down");
  ASSERT_TRUE(result.status.ok());
  EXPECT_EQ(result.response.status_code, 500);
  EXPECT_EQ(result.response.body, "oops");
  EXPECT_EQ(calls.load(), 4);
  EXPECT_EQ(clock_.sleeps(),
            (std::vector<nanoseconds>{milliseconds(100), milliseconds(200),
                                      milliseconds(400)}));
}

TEST_F(RetryingHttpClientTest, PostIsNotRetriedOnceItReachedTheServer) {
  std::atomic<int> calls{0};
  server_.Handle("POST", "/create",
                 [&](const httplib::Request&, httplib::Response& res) {
                   ++calls;
                   ScriptedServer::Json(res, 503, "{}");
                 });
  server_.Start();
  HttpResult result = Send("POST", "/create");
  ASSERT_TRUE(result.status.ok());
  EXPECT_EQ(result.response.status_code, 503);
  EXPECT_EQ(calls.load(), 1);
  EXPECT_TRUE(clock_.sleeps().empty());
}

TEST_F(RetryingHttpClientTest, PostIsRetriedWhenTheConnectionFailed) {
  const int port = server_.Start();
  server_.Stop();  // Connections are refused from now on.
  RetryingHttpClient client(&curl_, &clock_, options_);
  HttpRequest request;
  request.method = "POST";
  request.url = "http://127.0.0.1:" + std::to_string(port) + "/create";
  request.body = "{}";
  HttpResult result = client.Send(request);
  EXPECT_EQ(result.status.code(), StatusCode::kUnavailable);
  EXPECT_FALSE(result.sent);
  EXPECT_EQ(clock_.sleeps().size(), 3u);  // 4 attempts.
}

TEST_F(RetryingHttpClientTest, StreamIsNotResentAfterBytesWereDelivered) {
  std::atomic<int> calls{0};
  auto feed = std::make_shared<ChunkFeed>();
  server_.Handle("GET", "/watch",
                 [&](const httplib::Request&, httplib::Response& res) {
                   ++calls;
                   server_.Stream(res, feed);
                 });
  server_.Start();
  feed->Push("some bytes");
  feed->Drop();
  RetryingHttpClient client(&curl_, &clock_, options_);
  HttpRequest request;
  request.url = server_.url() + "/watch";
  std::string received;
  request.on_body = [&](std::string_view bytes) {
    received.append(bytes);
    return true;
  };
  HttpResult result = client.Send(request);
  EXPECT_EQ(result.status.code(), StatusCode::kUnavailable);
  EXPECT_EQ(received, "some bytes");
  EXPECT_EQ(calls.load(), 1);
}

}  // namespace
}  // namespace gcushare::kube
