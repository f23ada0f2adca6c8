#include "kube/curl_http_client.h"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "kube/testing/scripted_server.h"

namespace gcushare::kube {
namespace {

using ::gcushare::kube::testing::ChunkFeed;
using ::gcushare::kube::testing::ScriptedServer;

// Collects streamed bytes and lets the test wait for them.
class ByteSink {
 public:
  bool Add(std::string_view bytes) {
    std::lock_guard<std::mutex> lock(mu_);
    received_.append(bytes);
    ++calls_;
    cv_.notify_all();
    return true;
  }
  bool WaitFor(const std::string& text) {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_for(lock, std::chrono::seconds(20), [&] {
      return received_.find(text) != std::string::npos;
    });
  }
  std::string received() {
    std::lock_guard<std::mutex> lock(mu_);
    return received_;
  }
  int calls() {
    std::lock_guard<std::mutex> lock(mu_);
    return calls_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::string received_;
  int calls_ = 0;
};

TEST(CurlHttpClientTest, SendsMethodHeadersQueryAndBody) {
  ScriptedServer server;
  server.Handle("PATCH", "/things/(.*)",
                [](const httplib::Request& request, httplib::Response& res) {
                  res.set_header("X-Echo", request.get_header_value("X-Test"));
                  ScriptedServer::Json(res, 200, "{\"ok\":true}");
                });
  server.Start();
  CurlHttpClient client(TlsConfig{});
  HttpRequest request;
  request.method = "PATCH";
  request.url = server.url() + "/things/a?x=1%3D2&y=z";
  request.headers = {{"X-Test", "hello"},
                     {"Content-Type", "application/merge-patch+json"}};
  request.body = "{\"a\":1}";
  HttpResult result = client.Send(request);
  ASSERT_TRUE(result.status.ok()) << result.status;
  EXPECT_EQ(result.response.status_code, 200);
  EXPECT_EQ(result.response.body, "{\"ok\":true}");
  EXPECT_EQ(result.response.Header("x-echo"), "hello");
  EXPECT_EQ(result.response.Header("content-type"), "application/json");

  auto requests = server.RequestsTo("PATCH", "/things/a");
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].Param("x"), "1=2");
  EXPECT_EQ(requests[0].Param("y"), "z");
  EXPECT_EQ(requests[0].body, "{\"a\":1}");
  EXPECT_EQ(requests[0].Header("Content-Type"), "application/merge-patch+json");
  EXPECT_EQ(requests[0].Header("Accept"), "application/json");
  EXPECT_EQ(requests[0].Header("Expect"), "");
}

TEST(CurlHttpClientTest, DeleteAndPutCarryTheirMethods) {
  ScriptedServer server;
  for (const char* method : {"DELETE", "PUT", "POST"}) {
    server.Handle(method, "/x",
                  [](const httplib::Request& request, httplib::Response& res) {
                    ScriptedServer::Json(res, 200,
                                         "\"" + request.method + "\"");
                  });
  }
  server.Start();
  CurlHttpClient client(TlsConfig{});
  for (const char* method : {"DELETE", "PUT", "POST"}) {
    HttpRequest request;
    request.method = method;
    request.url = server.url() + "/x";
    HttpResult result = client.Send(request);
    ASSERT_TRUE(result.status.ok()) << result.status;
    EXPECT_EQ(result.response.body, std::string("\"") + method + "\"");
  }
}

TEST(CurlHttpClientTest, StreamsBodyBytesAsTheyArrive) {
  ScriptedServer server;
  auto feed = std::make_shared<ChunkFeed>();
  server.Handle("GET", "/stream",
                [&](const httplib::Request&, httplib::Response& res) {
                  server.Stream(res, feed);
                });
  server.Start();
  CurlHttpClient client(TlsConfig{});
  ByteSink sink;
  HttpRequest request;
  request.url = server.url() + "/stream";
  request.on_body = [&](std::string_view bytes) { return sink.Add(bytes); };
  std::future<HttpResult> result =
      std::async(std::launch::async, [&] { return client.Send(request); });
  // The second chunk is only pushed after the first arrived: the client
  // must hand bytes over before the response ends.
  feed->Push("first|");
  ASSERT_TRUE(sink.WaitFor("first|"));
  feed->Push("second");
  ASSERT_TRUE(sink.WaitFor("second"));
  feed->End();
  HttpResult done = result.get();
  ASSERT_TRUE(done.status.ok()) << done.status;
  EXPECT_EQ(done.response.status_code, 200);
  EXPECT_EQ(done.response.body, "");
  EXPECT_EQ(sink.received(), "first|second");
}

TEST(CurlHttpClientTest, ErrorBodiesAreBufferedNotStreamed) {
  ScriptedServer server;
  server.Handle(
      "GET", "/gone", [](const httplib::Request&, httplib::Response& res) {
        ScriptedServer::Json(res, 410, "{\"kind\":\"Status\",\"code\":410}");
      });
  server.Start();
  CurlHttpClient client(TlsConfig{});
  ByteSink sink;
  HttpRequest request;
  request.url = server.url() + "/gone";
  request.on_body = [&](std::string_view bytes) { return sink.Add(bytes); };
  HttpResult result = client.Send(request);
  ASSERT_TRUE(result.status.ok()) << result.status;
  EXPECT_EQ(result.response.status_code, 410);
  EXPECT_EQ(result.response.body, "{\"kind\":\"Status\",\"code\":410}");
  EXPECT_EQ(sink.calls(), 0);
}

TEST(CurlHttpClientTest, CancelEndsAnOpenStream) {
  ScriptedServer server;
  auto feed = std::make_shared<ChunkFeed>();
  server.Handle("GET", "/stream",
                [&](const httplib::Request&, httplib::Response& res) {
                  server.Stream(res, feed);
                });
  server.Start();
  CurlHttpClient client(TlsConfig{});
  base::Cancellation cancel;
  ByteSink sink;
  HttpRequest request;
  request.url = server.url() + "/stream";
  request.timeout = std::chrono::milliseconds(0);  // No total timeout.
  request.cancel = &cancel;
  request.on_body = [&](std::string_view bytes) { return sink.Add(bytes); };
  std::future<HttpResult> result =
      std::async(std::launch::async, [&] { return client.Send(request); });
  feed->Push("data");
  ASSERT_TRUE(sink.WaitFor("data"));
  cancel.Cancel();  // The stream stays open on the server side.
  HttpResult done = result.get();
  EXPECT_EQ(done.status.code(), StatusCode::kCancelled) << done.status;
  feed->Drop();
}

TEST(CurlHttpClientTest, ConsumerCanStopTheStream) {
  ScriptedServer server;
  auto feed = std::make_shared<ChunkFeed>();
  server.Handle("GET", "/stream",
                [&](const httplib::Request&, httplib::Response& res) {
                  server.Stream(res, feed);
                });
  server.Start();
  CurlHttpClient client(TlsConfig{});
  HttpRequest request;
  request.url = server.url() + "/stream";
  request.on_body = [](std::string_view) { return false; };
  feed->Push("x");
  HttpResult result = client.Send(request);
  EXPECT_EQ(result.status.code(), StatusCode::kCancelled) << result.status;
  EXPECT_TRUE(result.sent);
  feed->Drop();
}

TEST(CurlHttpClientTest, StreamCutOffIsUnavailable) {
  ScriptedServer server;
  auto feed = std::make_shared<ChunkFeed>();
  server.Handle("GET", "/stream",
                [&](const httplib::Request&, httplib::Response& res) {
                  server.Stream(res, feed);
                });
  server.Start();
  CurlHttpClient client(TlsConfig{});
  ByteSink sink;
  HttpRequest request;
  request.url = server.url() + "/stream";
  request.on_body = [&](std::string_view bytes) { return sink.Add(bytes); };
  feed->Push("partial");
  feed->Drop();
  HttpResult result = client.Send(request);
  EXPECT_EQ(result.status.code(), StatusCode::kUnavailable) << result.status;
  EXPECT_TRUE(result.sent);
  EXPECT_EQ(sink.received(), "partial");
}

TEST(CurlHttpClientTest, ConnectionRefusedWasNotSent) {
  int port;
  {
    ScriptedServer server;
    port = server.Start();
  }  // Nothing listens there any more.
  CurlHttpClient client(TlsConfig{});
  HttpRequest request;
  request.method = "POST";
  request.url = "http://127.0.0.1:" + std::to_string(port) + "/x";
  request.body = "{}";
  HttpResult result = client.Send(request);
  EXPECT_EQ(result.status.code(), StatusCode::kUnavailable) << result.status;
  EXPECT_FALSE(result.sent);
  EXPECT_NE(result.status.message().find("POST http://127.0.0.1:"),
            std::string::npos);
}

TEST(CurlHttpClientTest, TotalTimeoutIsDeadlineExceeded) {
  ScriptedServer server;
  auto feed = std::make_shared<ChunkFeed>();
  server.Handle("GET", "/slow",
                [&](const httplib::Request&, httplib::Response& res) {
                  server.Stream(res, feed);
                });
  server.Start();
  CurlHttpClient client(TlsConfig{});
  HttpRequest request;
  request.url = server.url() + "/slow";
  request.timeout = std::chrono::milliseconds(200);
  HttpResult result = client.Send(request);
  EXPECT_EQ(result.status.code(), StatusCode::kDeadlineExceeded)
      << result.status;
  feed->Drop();
}

TEST(CurlHttpClientTest, OversizedBodyIsResourceExhausted) {
  ScriptedServer server;
  server.Handle("GET", "/big",
                [](const httplib::Request&, httplib::Response& res) {
                  ScriptedServer::Json(res, 200, std::string(10000, ' '));
                });
  server.Start();
  CurlHttpClientOptions options;
  options.max_body_bytes = 1000;
  CurlHttpClient client(TlsConfig{}, options);
  HttpRequest request;
  request.url = server.url() + "/big";
  HttpResult result = client.Send(request);
  EXPECT_EQ(result.status.code(), StatusCode::kResourceExhausted)
      << result.status;
}

TEST(CurlHttpClientTest, ConcurrentRequestsFromManyThreads) {
  ScriptedServer server;
  server.Handle("GET", "/n/(\\d+)",
                [](const httplib::Request& request, httplib::Response& res) {
                  ScriptedServer::Json(res, 200, request.matches[1].str());
                });
  server.Start();
  CurlHttpClient client(TlsConfig{});
  std::atomic<int> good{0};
  std::vector<std::thread> threads;
  threads.reserve(6);
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20; ++i) {
        HttpRequest request;
        const std::string n = std::to_string(t * 100 + i);
        request.url = server.url() + "/n/" + n;
        HttpResult result = client.Send(request);
        if (result.status.ok() && result.response.body == n) ++good;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(good.load(), 120);
}

}  // namespace
}  // namespace gcushare::kube
