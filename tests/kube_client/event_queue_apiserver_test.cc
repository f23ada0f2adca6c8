// kube::EventQueue against the stand-in API server (in process) over real
// HTTP: while the server stalls, the queue stays bounded and counts what it
// drops; once the server answers, what was queued is posted.
#include <gtest/gtest.h>

#include <chrono>

#include "base/mutex.h"
#include "kube/curl_kube_client.h"
#include "kube/event_queue.h"
#include "tests/peers/apiserver/testing/test_server.h"

namespace gcushare::kube {
namespace {

using std::chrono::seconds;

// Holds every event POST until Release().
class Gate {
 public:
  int Hold(const std::string& method, const std::string& path) {
    if (method != "POST" || path.find("/events") == std::string::npos) {
      return 0;
    }
    base::MutexLock lock(mu_);
    ++held_;
    cv_.NotifyAll();
    cv_.Wait(lock, [this]() REQUIRES(mu_) { return open_; });
    return 0;
  }
  bool WaitHeld(int n) {
    base::MutexLock lock(mu_);
    return cv_.WaitFor(lock, seconds(30),
                       [this, n]() REQUIRES(mu_) { return held_ >= n; });
  }
  void Release() {
    base::MutexLock lock(mu_);
    open_ = true;
    cv_.NotifyAll();
  }

 private:
  base::Mutex mu_;
  base::CondVar cv_;
  int held_ GUARDED_BY(mu_) = 0;
  bool open_ GUARDED_BY(mu_) = false;
};

TEST(EventQueueApiServerTest, StalledServerBoundsTheQueue) {
  Gate gate;
  apiserver::ServerOptions options;
  options.fail_after_commit = [&gate](const std::string& method,
                                      const std::string& path) {
    return gate.Hold(method, path);
  };
  apiserver::testing::TestServer server(options);
  ClientConfig config;
  config.server = "http://127.0.0.1:" + std::to_string(server.port());
  KubeClientOptions client_options;
  client_options.http.request_timeout = seconds(60);
  client_options.retry.max_attempts = 1;
  auto client = CurlKubeClient::Create(config, client_options);
  ASSERT_TRUE(client.ok()) << client.status();

  EventQueue events(client->get(), "test", /*remembered=*/100,
                    /*capacity=*/3);
  events.Start();
  auto post = [&](int i) {
    events.Post(
        {"Pod", "default", "p" + std::to_string(i), "uid-" + std::to_string(i)},
        "Warning", "Test", "event " + std::to_string(i));
  };
  post(0);
  ASSERT_TRUE(gate.WaitHeld(1));  // The worker is stuck on the server.
  for (int i = 1; i < 10; ++i) post(i);
  EXPECT_EQ(events.pending(), 3u);
  EXPECT_EQ(events.dropped(), 7u);

  gate.Release();
  ASSERT_TRUE(events.WaitIdle(seconds(30)));
  events.Stop();
  auto list = server.Get("/api/v1/namespaces/default/events");
  ASSERT_EQ(list.status, 200) << list.body;
  EXPECT_EQ(list.json["items"].size(), 3u);
}

}  // namespace
}  // namespace gcushare::kube
