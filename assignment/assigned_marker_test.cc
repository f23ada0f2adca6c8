// AssignedMarker against the stand-in API server over real HTTP: one mark
// per pod, and a pod whose PATCH keeps failing does not hold up the others.
#include "assignment/assigned_marker.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <thread>

#include "base/clock.h"
#include "kube/curl_kube_client.h"
#include "testing/eventually.h"
#include "tests/peers/apiserver/testing/test_server.h"

namespace gcushare::assignment {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

class AssignedMarkerTest : public ::testing::Test {
 protected:
  AssignedMarkerTest() : server_(Options(this)) {
    kube::ClientConfig config;
    config.server = "http://127.0.0.1:" + std::to_string(server_.port());
    kube::KubeClientOptions options;
    options.retry.max_attempts = 1;  // The marker retries, not the client.
    auto client = kube::CurlKubeClient::Create(config, options);
    EXPECT_TRUE(client.ok()) << client.status();
    client_ = std::move(*client);
  }

  static apiserver::ServerOptions Options(AssignedMarkerTest* test) {
    apiserver::ServerOptions options;
    options.fail_after_commit = [test](const std::string& method,
                                       const std::string& path) {
      if (method != "PATCH") return 0;
      std::lock_guard<std::mutex> lock(test->mu_);
      ++test->patches_[path];
      return path.find("/pods/stuck") != std::string::npos ? 500 : 0;
    };
    return options;
  }

  int Patches(const std::string& pod) {
    std::lock_guard<std::mutex> lock(mu_);
    return patches_["/api/v1/namespaces/default/pods/" + pod];
  }
  bool Marked(const std::string& pod) {
    auto r = server_.Get("/api/v1/namespaces/default/pods/" + pod);
    const auto annotations =
        r.json["metadata"].value("annotations", apiserver::Json::object());
    return annotations.value("enflame.com/gcu-device-assigned", "") == "true";
  }
  template <typename Pred>
  bool WaitFor(Pred done) {
    return gcushare::testing::Eventually(done);
  }

  std::mutex mu_;
  std::map<std::string, int> patches_;  // Guarded by mu_.
  apiserver::testing::TestServer server_;
  std::unique_ptr<kube::CurlKubeClient> client_;
  base::RealClock clock_;
};

TEST_F(AssignedMarkerTest, FailingPodDoesNotBlockTheOthers) {
  std::string stuck = server_.CreatePod("default", "stuck")["metadata"]["uid"];
  std::string a = server_.CreatePod("default", "a")["metadata"]["uid"];
  std::string b = server_.CreatePod("default", "b")["metadata"]["uid"];
  AssignedMarker marker(client_.get(), &clock_,
                        {milliseconds(5), milliseconds(20), 2.0, 0.0});
  marker.Mark("default", "stuck", stuck);  // First in line, always 500.
  marker.Mark("default", "a", a);
  marker.Mark("default", "b", b);
  marker.Start();
  EXPECT_TRUE(WaitFor([&] { return Marked("a") && Marked("b"); }));
  // The stuck pod is retried in rounds, not given up on.
  EXPECT_TRUE(WaitFor([&] { return Patches("stuck") >= 3; }));
  EXPECT_EQ(marker.pending(), 1u);
  marker.Stop();
  EXPECT_EQ(Patches("a"), 1);
  EXPECT_EQ(Patches("b"), 1);
}

TEST_F(AssignedMarkerTest, OneMarkPerPodNotPerContainer) {
  std::string uid = server_.CreatePod("default", "p")["metadata"]["uid"];
  AssignedMarker marker(client_.get(), &clock_,
                        {milliseconds(5), milliseconds(20), 2.0, 0.0});
  // Queued before the worker runs: once.
  EXPECT_TRUE(marker.Mark("default", "p", uid));
  for (int container = 1; container < 4; ++container) {
    EXPECT_FALSE(marker.Mark("default", "p", uid));
  }
  marker.Start();
  ASSERT_TRUE(marker.WaitIdle(seconds(30)));
  for (int container = 0; container < 4; ++container) {
    EXPECT_FALSE(marker.Mark("default", "p", uid));  // Done: remembered.
  }
  ASSERT_TRUE(marker.WaitIdle(seconds(30)));
  marker.Stop();
  EXPECT_TRUE(Marked("p"));
  EXPECT_EQ(Patches("p"), 1);
}

// A pod deleted before its mark (the API server answers 404, NotFound) is
// given up after one PATCH, not retried.
TEST_F(AssignedMarkerTest, GonePodIsNotRetried) {
  AssignedMarker marker(client_.get(), &clock_,
                        {milliseconds(5), milliseconds(20), 2.0, 0.0});
  marker.Mark("default", "gone", "uid-of-a-deleted-pod");
  marker.Start();
  // Idle only once the mark is finished: a retried mark stays pending.
  EXPECT_TRUE(marker.WaitIdle(seconds(30)));
  EXPECT_EQ(marker.pending(), 0u);
  marker.Stop();
}

// A pod past `capacity` pending marks is dropped (logged), not queued
// without limit.
TEST_F(AssignedMarkerTest, BoundedWhileTheApiServerFails) {
  std::string stuck = server_.CreatePod("default", "stuck")["metadata"]["uid"];
  std::string a = server_.CreatePod("default", "a")["metadata"]["uid"];
  AssignedMarker marker(client_.get(), &clock_,
                        {milliseconds(5), milliseconds(20), 2.0, 0.0},
                        /*capacity=*/1);
  EXPECT_TRUE(marker.Mark("default", "stuck", stuck));
  EXPECT_FALSE(marker.Mark("default", "a", a));  // Dropped: stuck fills it.
  EXPECT_EQ(marker.pending(), 1u);
  marker.Start();
  EXPECT_TRUE(WaitFor([&] { return Patches("stuck") >= 2; }));
  marker.Stop();
  EXPECT_EQ(Patches("a"), 0);
}

}  // namespace
}  // namespace gcushare::assignment
