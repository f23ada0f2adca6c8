#include "extender/bind_router.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "base/testing/fake_clock.h"
#include "extender/binding_catch_up.h"
#include "extender/card_cache.h"
#include "extender/extender_service.h"
#include "extender/leader_metrics.h"
#include "extender/testing/objects.h"
#include "ha/leader_elector.h"
#include "kube/http_client.h"
#include "kube/testing/fake_kube_client.h"
#include "metrics/registry.h"

namespace gcushare::extender {

using placement::Policy;

namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using testing::MemoryPod;
using testing::SharingNode;

std::string BindArgs(const nlohmann::json& pod, const std::string& node) {
  return nlohmann::json{{"PodName", pod["metadata"]["name"]},
                        {"PodNamespace", pod["metadata"]["namespace"]},
                        {"PodUID", pod["metadata"]["uid"]},
                        {"Node", node}}
      .dump();
}

std::string ErrorOf(const HttpReply& reply) {
  EXPECT_EQ(reply.status, 200) << reply.body;
  return nlohmann::json::parse(reply.body)["Error"].get<std::string>();
}

// The API server as one replica sees it: the shared fake, plus a hook run
// when the pod is read (between a bind's start and its decision).
class HookedClient : public kube::FakeKubeClient {
 public:
  StatusOr<nlohmann::json> Get(const kube::Resource& resource,
                               std::string_view ns,
                               std::string_view name) override {
    if (resource.plural == "pods" && on_pod_get) on_pod_get();
    if (resource.plural == "leases" && leases_down) {
      return UnavailableError("connection refused");
    }
    return FakeKubeClient::Get(resource, ns, name);
  }
  std::function<void()> on_pod_get;
  bool leases_down = false;  // The Lease cannot be read.
};

class Replicas;

// Delivers forwarded binds to the replica at the URL, as HTTP would; a
// replica marked dead refuses the connection.
class FakeNetwork : public kube::HttpClient {
 public:
  explicit FakeNetwork(Replicas* replicas) : replicas_(replicas) {}
  kube::HttpResult Send(const kube::HttpRequest& request) override;
  std::vector<std::string> sent;

 private:
  Replicas* replicas_;
};

struct Replica {
  std::string id;
  base::FakeClock clock;
  CardCache cache;
  metrics::Registry registry;
  std::unique_ptr<ExtenderService> service;
  std::unique_ptr<ha::LeaderElector> elector;
  std::unique_ptr<BindRouter> router;
  bool dead = false;
};

class Replicas {
 public:
  explicit Replicas(int n, BindRouterOptions router_options = {})
      : network_(this) {
    for (int i = 0; i < n; ++i) {
      auto r = std::make_unique<Replica>();
      r->id = std::string(1, static_cast<char>('a' + i));
      ha::LeaderElectionOptions options;
      options.lease_namespace = "gcushare";
      options.lease_name = "gcushare-scheduler-extender";
      options.identity = r->id;
      options.leader_url = "http://" + r->id;
      r->service = std::make_unique<ExtenderService>(
          &r->cache, &api, &r->clock, Policy::kBinpack, &r->registry);
      r->elector =
          std::make_unique<ha::LeaderElector>(&api, &r->clock, options);
      RegisterLeaderMetrics(r->elector.get(), &r->registry);
      Replica* raw = r.get();
      r->router = std::make_unique<BindRouter>(
          r->service.get(), r->elector.get(), &network_, &r->clock,
          [this, raw]() -> Status {
            return CatchUpBindings(&api, &raw->cache, "kube-system").status();
          },
          &r->registry, router_options);
      by_url_["http://" + r->id] = r.get();
      replicas_.push_back(std::move(r));
    }
  }
  Replica& operator[](int i) { return *replicas_[i]; }
  Replica* AtUrl(const std::string& url) {
    auto it = by_url_.find(url);
    return it == by_url_.end() ? nullptr : it->second;
  }
  void AddNode(const nlohmann::json& node) {
    ASSERT_TRUE(api.Seed(kube::Resource::Nodes(), node).ok());
    for (auto& r : replicas_) r->cache.UpsertNode(node);
  }
  nlohmann::json AddPod(const nlohmann::json& pod) {
    auto seeded = api.Seed(kube::Resource::Pods(), pod);
    EXPECT_TRUE(seeded.ok());
    return *seeded;
  }
  std::string NodeOf(const std::string& name) {
    auto pod = api.Get(kube::Resource::Pods(), "default", name);
    EXPECT_TRUE(pod.ok());
    return (*pod)["spec"].value("nodeName", "");
  }
  void Advance(milliseconds by) {
    for (auto& r : replicas_) r->clock.Advance(by);
  }
  // The count of a router's route label.
  static std::string Routed(Replica& r) { return r.registry.Render(); }

  HookedClient api;
  FakeNetwork network_;

 private:
  std::vector<std::unique_ptr<Replica>> replicas_;
  std::map<std::string, Replica*> by_url_;
};

kube::HttpResult FakeNetwork::Send(const kube::HttpRequest& request) {
  sent.push_back(request.url);
  kube::HttpResult result;
  const std::string suffix = "/gcushare-scheduler/bind";
  const std::string base = request.url.substr(
      0, request.url.size() - std::min(request.url.size(), suffix.size()));
  Replica* to = replicas_->AtUrl(base);
  if (to == nullptr || to->dead) {
    result.status = UnavailableError("connection refused");
    result.sent = false;
    return result;
  }
  HttpReply reply =
      to->router->Bind(request.body, request.Header(kForwardedByHeader));
  result.response.status_code = reply.status;
  result.response.body = reply.body;
  return result;
}

std::string Uid(const nlohmann::json& pod) {
  return pod["metadata"]["uid"].get<std::string>();
}

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(BindRouterTest, FollowerForwardsToTheBinderWhichBindsOnce) {
  Replicas rs(2);
  rs.AddNode(SharingNode("n1", 2, 16));
  ASSERT_TRUE(rs[0].elector->Step());
  ASSERT_FALSE(rs[1].elector->Step());
  auto pod = rs.AddPod(MemoryPod("p1", 8));
  EXPECT_EQ(ErrorOf(rs[1].router->Bind(BindArgs(pod, "n1"), "")), "");
  EXPECT_EQ(rs.NodeOf("p1"), "n1");
  ASSERT_EQ(rs.network_.sent.size(), 1u);
  EXPECT_EQ(rs.network_.sent[0], "http://a/gcushare-scheduler/bind");
  // The binder's cache holds the reservation; the follower's does not.
  EXPECT_TRUE(rs[0].cache.Pod(Uid(pod)).has_value());
  EXPECT_TRUE(
      Has(rs[1].registry.Render(),
          "gcushare_extender_binds_routed_total{route=\"forwarded\"} 1"));
  EXPECT_TRUE(Has(rs[0].registry.Render(),
                  "gcushare_extender_binds_routed_total{route=\"local\"} 1"));
  EXPECT_TRUE(Has(rs[0].registry.Render(), "gcushare_extender_binder 1"));
  EXPECT_TRUE(Has(rs[1].registry.Render(), "gcushare_extender_binder 0"));
  // A retry through the other replica (its reply was lost): success, once.
  EXPECT_EQ(ErrorOf(rs[1].router->Bind(BindArgs(pod, "n1"), "")), "");
  auto role = rs[1].router->Role();
  EXPECT_EQ(role["leader"], "a");
  EXPECT_EQ(role["binder"], false);
  EXPECT_EQ(rs[0].router->Role()["binder"], true);
}

TEST(BindRouterTest, SameCardFromDifferentReplicasIsNeverOverCommitted) {
  Replicas rs(3);
  rs.AddNode(SharingNode("n1", 1, 16));
  ASSERT_TRUE(rs[0].elector->Step());
  ASSERT_FALSE(rs[1].elector->Step());
  ASSERT_FALSE(rs[2].elector->Step());
  auto p1 = rs.AddPod(MemoryPod("p1", 10));
  auto p2 = rs.AddPod(MemoryPod("p2", 10));
  auto p3 = rs.AddPod(MemoryPod("p3", 10));
  // Every follower's cache shows the card empty: each would say yes.
  const std::string e1 = ErrorOf(rs[1].router->Bind(BindArgs(p1, "n1"), ""));
  const std::string e2 = ErrorOf(rs[2].router->Bind(BindArgs(p2, "n1"), ""));
  const std::string e3 = ErrorOf(rs[0].router->Bind(BindArgs(p3, "n1"), ""));
  EXPECT_EQ(e1, "");
  EXPECT_NE(e2, "");
  EXPECT_NE(e3, "");
  EXPECT_EQ(rs.NodeOf("p1"), "n1");
  EXPECT_EQ(rs.NodeOf("p2"), "");
  EXPECT_EQ(rs.NodeOf("p3"), "");
}

TEST(BindRouterTest, ForwardedBindToANonBinderIsRefusedWithoutASecondHop) {
  Replicas rs(2);
  rs.AddNode(SharingNode("n1", 1, 16));
  ASSERT_TRUE(rs[0].elector->Step());
  ASSERT_FALSE(rs[1].elector->Step());
  auto pod = rs.AddPod(MemoryPod("p1", 4));
  HttpReply reply = rs[1].router->Bind(BindArgs(pod, "n1"), "c");
  EXPECT_EQ(reply.status, 409);
  const std::string error =
      nlohmann::json::parse(reply.body)["Error"].get<std::string>();
  EXPECT_TRUE(Has(error, "not the binder")) << error;
  EXPECT_TRUE(rs.network_.sent.empty());
  EXPECT_EQ(rs.NodeOf("p1"), "");
}

TEST(BindRouterTest, ForwardToADeadBinderFailsCleanlyAndBindsNothing) {
  BindRouterOptions options;
  options.wait_for_leader = milliseconds(100);  // Shorter than the lease.
  Replicas rs(2, options);
  rs.AddNode(SharingNode("n1", 1, 16));
  ASSERT_TRUE(rs[0].elector->Step());
  ASSERT_FALSE(rs[1].elector->Step());
  rs[0].dead = true;  // SIGKILLed; its Lease has not expired yet.
  auto pod = rs.AddPod(MemoryPod("p1", 4));
  const std::string error =
      ErrorOf(rs[1].router->Bind(BindArgs(pod, "n1"), ""));
  EXPECT_TRUE(Has(error, "cannot forward")) << error;
  EXPECT_EQ(rs.NodeOf("p1"), "");
  // kube-scheduler retries after the Lease expired: b binds, once.
  rs[1].clock.Advance(seconds(4));
  ASSERT_TRUE(rs[1].elector->Step());
  EXPECT_EQ(ErrorOf(rs[1].router->Bind(BindArgs(pod, "n1"), "")), "");
  EXPECT_EQ(rs.NodeOf("p1"), "n1");
}

// By default the wait covers the Lease's expiry: the follower takes over
// while the bind waits, and binds it, once.
TEST(BindRouterTest, BindWaitsOutADeadBinder) {
  Replicas rs(2);
  rs.AddNode(SharingNode("n1", 1, 16));
  ASSERT_TRUE(rs[0].elector->Step());
  ASSERT_FALSE(rs[1].elector->Step());
  rs[0].dead = true;
  auto pod = rs.AddPod(MemoryPod("p1", 4));
  EXPECT_EQ(ErrorOf(rs[1].router->Bind(BindArgs(pod, "n1"), "")), "");
  EXPECT_EQ(rs.NodeOf("p1"), "n1");
  EXPECT_TRUE(rs[1].elector->IsLeader());
  EXPECT_EQ(rs.network_.sent.size(), 1u);  // One failed forward, no other.
}

TEST(BindRouterTest, BinderThatLosesTheRightMidBindWritesNothing) {
  Replicas rs(2);
  rs.AddNode(SharingNode("n1", 1, 16));
  ASSERT_TRUE(rs[0].elector->Step());
  auto pod = rs.AddPod(MemoryPod("p1", 4));
  // Its renewals stall: by the time the card is chosen, the renew
  // deadline has passed.
  rs.api.on_pod_get = [&] { rs[0].clock.Advance(milliseconds(3000)); };
  const std::string error =
      ErrorOf(rs[0].router->Bind(BindArgs(pod, "n1"), ""));
  rs.api.on_pod_get = nullptr;
  EXPECT_TRUE(Has(error, "lost the right to bind")) << error;
  EXPECT_EQ(rs.NodeOf("p1"), "");
  EXPECT_FALSE(rs[0].cache.Pod(Uid(pod)).has_value());
  EXPECT_TRUE(Has(rs[0].registry.Render(),
                  "gcushare_extender_bind_failures_total{stage=\"fenced\"} 1"));
}

TEST(BindRouterTest, NewBinderCatchesUpWithBindingsItsCacheNeverSaw) {
  Replicas rs(2);
  rs.AddNode(SharingNode("n1", 1, 16));
  ASSERT_TRUE(rs[0].elector->Step());
  ASSERT_FALSE(rs[1].elector->Step());
  auto p1 = rs.AddPod(MemoryPod("p1", 12));
  auto p2 = rs.AddPod(MemoryPod("p2", 8));
  ASSERT_EQ(ErrorOf(rs[0].router->Bind(BindArgs(p1, "n1"), "")), "");
  // a is SIGKILLed right after its Binding; b's watch has not shown it.
  rs[0].dead = true;
  EXPECT_FALSE(rs[1].cache.Pod(Uid(p1)).has_value());
  rs[1].clock.Advance(seconds(4));
  ASSERT_TRUE(rs[1].elector->Step());
  const std::string error = ErrorOf(rs[1].router->Bind(BindArgs(p2, "n1"), ""));
  EXPECT_FALSE(error.empty()) << "p2 was bound onto a full card";
  EXPECT_EQ(rs.NodeOf("p2"), "");
  EXPECT_TRUE(rs[1].cache.Pod(Uid(p1)).has_value());
  EXPECT_EQ(rs[1].router->Role()["caughtUpTerm"], 1);
}

TEST(BindRouterTest, NoBinderWithinTheWaitIsAnError) {
  Replicas rs(1);
  rs.AddNode(SharingNode("n1", 1, 16));
  rs.api.leases_down = true;  // No replica can be elected.
  auto pod = rs.AddPod(MemoryPod("p1", 4));
  const std::string error =
      ErrorOf(rs[0].router->Bind(BindArgs(pod, "n1"), ""));
  EXPECT_TRUE(Has(error, "no extender replica holds")) << error;
  EXPECT_EQ(rs.NodeOf("p1"), "");
}

TEST(BindRouterTest, StoppedReplicaForwardsToItsSuccessor) {
  Replicas rs(2);
  rs.AddNode(SharingNode("n1", 1, 16));
  ASSERT_TRUE(rs[0].elector->Step());
  ASSERT_FALSE(rs[1].elector->Step());
  // SIGTERM of the binder: stop binding, hand the Lease over.
  rs[0].router->StopBinding();
  ASSERT_TRUE(rs[0].elector->Resign().ok());
  ASSERT_TRUE(rs[1].elector->Step());
  ASSERT_FALSE(rs[0].elector->Step());  // Observes b.
  auto pod = rs.AddPod(MemoryPod("p1", 4));
  EXPECT_EQ(ErrorOf(rs[0].router->Bind(BindArgs(pod, "n1"), "")), "");
  EXPECT_EQ(rs.network_.sent.back(), "http://b/gcushare-scheduler/bind");
  EXPECT_EQ(rs.NodeOf("p1"), "n1");
}

TEST(BindRouterTest, WithoutElectionEveryBindIsLocal) {
  kube::FakeKubeClient api;
  base::FakeClock clock;
  CardCache cache;
  metrics::Registry registry;
  ExtenderService service(&cache, &api, &clock, Policy::kBinpack, &registry);
  BindRouter router(&service, nullptr, nullptr, &clock, nullptr, &registry);
  auto node = SharingNode("n1", 1, 16);
  ASSERT_TRUE(api.Seed(kube::Resource::Nodes(), node).ok());
  cache.UpsertNode(node);
  auto pod = *api.Seed(kube::Resource::Pods(), MemoryPod("p1", 4));
  EXPECT_EQ(ErrorOf(router.Bind(BindArgs(pod, "n1"), "")), "");
  EXPECT_EQ(router.Role()["binder"], true);
}

}  // namespace
}  // namespace gcushare::extender
