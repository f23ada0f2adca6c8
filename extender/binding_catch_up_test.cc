// CatchUpBindings against the stand-in API server over HTTP (a real
// CurlKubeClient, pruned decoding, the stand-in's list sources): which
// lists it makes, what it reserves, and its fallback.
#include "extender/binding_catch_up.h"

#include <gtest/gtest.h>

#include <atomic>
#include <string>

#include "extender/testing/objects.h"
#include "kube/curl_kube_client.h"
#include "tests/peers/apiserver/list_cost.h"
#include "tests/peers/apiserver/testing/test_server.h"

namespace gcushare::extender {
namespace {

using apiserver::ListSource;
using nlohmann::json;
using testing::Assigned;
using testing::MemoryPod;
using testing::Pod;

class CatchUpTest : public ::testing::Test {
 protected:
  void SetUpServer(const apiserver::ServerOptions& options = {}) {
    api_ = std::make_unique<apiserver::testing::TestServer>(options);
    kube::ClientConfig config;
    config.server = "http://127.0.0.1:" + std::to_string(api_->port());
    // One attempt a request: a refused list is seen at once, unretried.
    kube::KubeClientOptions client_options;
    client_options.retry.max_attempts = 1;
    auto client = kube::CurlKubeClient::Create(config, client_options);
    ASSERT_TRUE(client.ok()) << client.status().ToString();
    client_ = std::move(*client);
    // In the small namespace: a plain pod.
    Create(Pod("kube-system", "dns", "", {{"main", 0, 0}}));
    // Bound by the last binder; this replica's watch has not shown it.
    missed_uid_ = Create(
        Assigned(MemoryPod("missed", 4), "n1", {1}, 16))["metadata"]["uid"];
    // Bound and already counted.
    counted_ = Create(Assigned(MemoryPod("counted", 8), "n1", {0}, 16));
    // A plain pod on the node, and a GCU pod not bound yet.
    json plain = Pod("default", "plain", "", {{"main", 0, 0}});
    plain["spec"]["nodeName"] = "n1";
    Create(plain);
    pending_uid_ = Create(MemoryPod("pending", 2))["metadata"]["uid"];
  }

  // The pod as the stand-in stored it (its uid is the server's).
  json Create(const json& pod) {
    const std::string ns = pod["metadata"]["namespace"];
    auto res = api_->Post("/api/v1/namespaces/" + ns + "/pods", pod.dump());
    EXPECT_EQ(res.status, 201) << res.body;
    return res.json;
  }

  uint64_t Requests(ListSource source) {
    return api_->server().list_cost().counts(source).requests;
  }

  std::unique_ptr<apiserver::testing::TestServer> api_;
  std::unique_ptr<kube::CurlKubeClient> client_;
  json counted_;
  std::string missed_uid_;
  std::string pending_uid_;
};

TEST_F(CatchUpTest, ReadsEtcdsRevisionThenEveryPodFromTheWatchCache) {
  SetUpServer();
  CardCache cache;
  ASSERT_TRUE(cache.UpsertPod(counted_).ok());
  auto added = CatchUpBindings(client_.get(), &cache, "kube-system");
  ASSERT_TRUE(added.ok()) << added.status().ToString();
  EXPECT_EQ(*added, 1u);
  auto missed = cache.Pod(missed_uid_);
  ASSERT_TRUE(missed.has_value());
  EXPECT_EQ(missed->node, "n1");
  EXPECT_EQ(missed->cards, (std::vector<uint32_t>{1}));
  EXPECT_EQ(missed->units, 4u);
  EXPECT_TRUE(missed->assumed);
  EXPECT_FALSE(cache.Pod(pending_uid_).has_value());
  // One quorum read (the small namespace), one answer from the cache.
  EXPECT_EQ(Requests(ListSource::kEtcd), 1u);
  EXPECT_EQ(Requests(ListSource::kWatchCache), 1u);
}

TEST_F(CatchUpTest, FallsBackToEtcdWhenTheWatchCacheListFails) {
  std::atomic<int> cluster_lists{0};
  apiserver::ServerOptions options;
  // The first list of every pod: 504, as kube-apiserver answers "Too
  // large resource version" when its watch cache does not catch up.
  options.fail_before_handle = [&](const std::string& method,
                                   const std::string& path) {
    if (method == "GET" && path == "/api/v1/pods" && cluster_lists++ == 0) {
      return 504;
    }
    return 0;
  };
  SetUpServer(options);
  CardCache cache;
  auto added = CatchUpBindings(client_.get(), &cache, "kube-system");
  ASSERT_TRUE(added.ok()) << added.status().ToString();
  EXPECT_EQ(*added, 2u);  // Nothing was counted: both bound GCU pods.
  EXPECT_TRUE(cache.Pod(missed_uid_).has_value());
  EXPECT_TRUE(
      cache.Pod(counted_["metadata"]["uid"].get<std::string>()).has_value());
  EXPECT_EQ(cluster_lists.load(), 2);
  // The small namespace and the consistent list of every pod, from etcd.
  EXPECT_EQ(Requests(ListSource::kEtcd), 2u);
  EXPECT_EQ(Requests(ListSource::kWatchCache), 0u);
}

TEST_F(CatchUpTest, AFailedQuorumReadIsTheErrorAndReservesNothing) {
  apiserver::ServerOptions options;
  options.fail_before_handle = [](const std::string& method,
                                  const std::string& path) {
    return method == "GET" && path == "/api/v1/namespaces/kube-system/pods"
               ? 503
               : 0;
  };
  SetUpServer(options);
  CardCache cache;
  auto added = CatchUpBindings(client_.get(), &cache, "kube-system");
  EXPECT_FALSE(added.ok());
  EXPECT_EQ(cache.pod_count(), 0u);
  EXPECT_EQ(Requests(ListSource::kWatchCache), 0u);
}

}  // namespace
}  // namespace gcushare::extender
