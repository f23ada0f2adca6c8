#include "ha/leader_elector.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "base/testing/fake_clock.h"
#include "ha/lease_record.h"
#include "kube/testing/fake_kube_client.h"

namespace gcushare::ha {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// Replicas of one process each: their own clock (started together, moved
// together) and elector, over one API server.
class ElectionTest : public ::testing::Test {
 protected:
  struct Replica {
    base::FakeClock clock;
    std::unique_ptr<LeaderElector> elector;
    std::vector<std::string> events;  // "start 1", "stop".
  };

  LeaderElectionOptions Options(const std::string& id) {
    LeaderElectionOptions options;
    options.lease_namespace = "gcushare";
    options.lease_name = "gcushare-scheduler-extender";
    options.identity = id;
    options.leader_url = "http://" + id + ":32766";
    return options;  // 4 s / 3 s / 0.5 s.
  }

  Replica& Add(const std::string& id) {
    auto replica = std::make_unique<Replica>();
    replica->elector =
        std::make_unique<LeaderElector>(&api_, &replica->clock, Options(id));
    Replica* r = replica.get();
    r->elector->SetCallbacks(
        [r](uint64_t term) {
          r->events.push_back("start " + std::to_string(term));
        },
        [r] { r->events.emplace_back("stop"); });
    replicas_.push_back(std::move(replica));
    return *r;
  }

  // Moves every replica's clock.
  void Advance(milliseconds by) {
    for (auto& r : replicas_) r->clock.Advance(by);
  }

  // How many replicas claim leadership now.
  int Leaders() {
    int n = 0;
    for (auto& r : replicas_) n += r->elector->IsLeader() ? 1 : 0;
    return n;
  }

  LeaseRecord Stored() {
    auto lease =
        api_.Get(LeaseResource(), "gcushare", "gcushare-scheduler-extender");
    EXPECT_TRUE(lease.ok());
    auto record = ParseLease(*lease);
    EXPECT_TRUE(record.ok());
    return *record;
  }

  kube::FakeKubeClient api_;
  std::vector<std::unique_ptr<Replica>> replicas_;
};

TEST(LeaderElectionOptionsTest, ValidationRules) {
  LeaderElectionOptions good;
  good.lease_namespace = "ns";
  good.lease_name = "lock";
  good.identity = "me";
  EXPECT_TRUE(ValidateLeaderElection(good).ok());
  struct Case {
    const char* what;
    std::function<void(LeaderElectionOptions&)> change;
  };
  const Case bad[] = {
      {"no namespace", [](auto& o) { o.lease_namespace = ""; }},
      {"no name", [](auto& o) { o.lease_name = ""; }},
      {"no identity", [](auto& o) { o.identity = ""; }},
      {"fractional lease",
       [](auto& o) { o.lease_duration = milliseconds(4500); }},
      {"zero lease", [](auto& o) { o.lease_duration = milliseconds(0); }},
      {"deadline = lease", [](auto& o) { o.renew_deadline = seconds(4); }},
      {"deadline > lease", [](auto& o) { o.renew_deadline = seconds(5); }},
      {"retry = deadline", [](auto& o) { o.retry_period = seconds(3); }},
      {"zero retry", [](auto& o) { o.retry_period = milliseconds(0); }},
  };
  for (const Case& c : bad) {
    LeaderElectionOptions options = good;
    c.change(options);
    EXPECT_FALSE(ValidateLeaderElection(options).ok()) << c.what;
  }
}

TEST_F(ElectionTest, FirstCandidateCreatesTheLeaseAndLeads) {
  Replica& a = Add("a");
  EXPECT_TRUE(a.elector->Step());
  EXPECT_TRUE(a.elector->IsLeader());
  EXPECT_EQ(a.elector->Term(), 1u);
  EXPECT_EQ(a.events, std::vector<std::string>{"start 1"});
  LeaseRecord stored = Stored();
  EXPECT_EQ(stored.holder, "a");
  EXPECT_EQ(stored.lease_duration_seconds, 4);
  EXPECT_EQ(stored.leader_url, "http://a:32766");
  EXPECT_EQ(stored.transitions, 0);
  ObservedLeader leader = a.elector->Leader();
  EXPECT_TRUE(leader.self);
  EXPECT_EQ(leader.url, "http://a:32766");
}

TEST_F(ElectionTest, FollowerSeesTheLeaderAndNeverTakesARenewedLease) {
  Replica& a = Add("a");
  Replica& b = Add("b");
  ASSERT_TRUE(a.elector->Step());
  for (int i = 0; i < 40; ++i) {  // 20 s of renewals every 0.5 s.
    EXPECT_FALSE(b.elector->Step());
    EXPECT_TRUE(a.elector->Step());
    EXPECT_EQ(Leaders(), 1);
    Advance(milliseconds(500));
  }
  ObservedLeader leader = b.elector->Leader();
  EXPECT_FALSE(leader.self);
  EXPECT_EQ(leader.identity, "a");
  EXPECT_EQ(leader.url, "http://a:32766");
  EXPECT_TRUE(b.events.empty());
  EXPECT_EQ(a.elector->terms_started(), 1u);
}

TEST_F(ElectionTest, OldLeaderStopsBeforeTheNewOneCanStart) {
  Replica& a = Add("a");
  Replica& b = Add("b");
  ASSERT_TRUE(a.elector->Step());
  ASSERT_FALSE(b.elector->Step());  // b sees a's record at t=0.
  // a is cut off from the API server from now on: every later call fails.
  // Walk time in 100 ms steps and check at each that never two lead.
  bool b_led = false;
  milliseconds a_stopped{-1}, b_started{-1};
  for (milliseconds t{100}; t <= seconds(6); t += milliseconds(100)) {
    Advance(milliseconds(100));
    api_.FailNext("get", UnavailableError("partitioned"));
    a.elector->Step();
    if (!a.elector->IsLeader() && a_stopped.count() < 0) a_stopped = t;
    if (b.elector->Step() && !b_led) {
      b_led = true;
      b_started = t;
    }
    ASSERT_LE(Leaders(), 1) << "at " << t.count() << " ms";
  }
  // a's right ended at its renew deadline (3 s after the start of its last
  // renewal); b took over at the lease duration (4 s after it saw it).
  EXPECT_EQ(a_stopped, seconds(3));
  EXPECT_EQ(b_started, seconds(4));
  EXPECT_EQ(a.events, (std::vector<std::string>{"start 1", "stop"}));
  EXPECT_EQ(b.events, std::vector<std::string>{"start 1"});
  LeaseRecord stored = Stored();
  EXPECT_EQ(stored.holder, "b");
  EXPECT_EQ(stored.transitions, 1);
  EXPECT_EQ(stored.leader_url, "http://b:32766");
  EXPECT_EQ(b.elector->holder_changes(), 1u);
}

TEST_F(ElectionTest, LeaderThatCannotRenewStepsDownAtItsDeadline) {
  Replica& a = Add("a");
  ASSERT_TRUE(a.elector->Step());
  Advance(milliseconds(2900));
  api_.FailNext("update", UnavailableError("timeout"));
  EXPECT_TRUE(a.elector->Step());  // Failed, but within the deadline.
  EXPECT_GT(a.elector->LeadershipLeft().count(), 0);
  Advance(milliseconds(100));
  EXPECT_FALSE(a.elector->IsLeader());  // Fenced by time alone.
  EXPECT_EQ(a.elector->LeadershipLeft().count(), 0);
  EXPECT_EQ(a.elector->Term(), 0u);
  // Its own Lease is not expired for others yet, but it may renew it.
  EXPECT_TRUE(a.elector->Step());
  EXPECT_EQ(a.elector->Term(), 2u);
  EXPECT_EQ(a.events, (std::vector<std::string>{"start 1", "stop", "start 2"}));
}

TEST_F(ElectionTest, ResignHandsOverAtTheFollowersNextStep) {
  Replica& a = Add("a");
  Replica& b = Add("b");
  ASSERT_TRUE(a.elector->Step());
  ASSERT_FALSE(b.elector->Step());
  Advance(milliseconds(500));
  ASSERT_TRUE(a.elector->Resign().ok());
  EXPECT_FALSE(a.elector->IsLeader());
  EXPECT_EQ(a.events, (std::vector<std::string>{"start 1", "stop"}));
  EXPECT_EQ(Stored().holder, "");
  EXPECT_TRUE(b.elector->Step());  // No lease_duration wait.
  // A resigned replica only observes: it follows b.
  Advance(seconds(10));
  EXPECT_FALSE(a.elector->Step());
  EXPECT_TRUE(b.elector->Step());
  EXPECT_EQ(a.elector->Leader().url, "http://b:32766");
}

TEST_F(ElectionTest, FreeLeaseIsTakenWithoutWaiting) {
  Replica& a = Add("a");
  ASSERT_TRUE(a.elector->Step());
  ASSERT_TRUE(a.elector->Resign().ok());
  Replica& c = Add("c");  // Starts after the release.
  EXPECT_TRUE(c.elector->Step());
  EXPECT_EQ(Stored().transitions, 1);
}

TEST_F(ElectionTest, OrphanedLeaseWaitsAFullDurationFromFirstSight) {
  Replica& a = Add("a");
  ASSERT_TRUE(a.elector->Step());
  // a dies (SIGKILL): no release. A new replica starting 10 s later still
  // waits a lease duration from its first look, as it cannot trust clocks.
  Advance(seconds(10));
  Replica& c = Add("c");
  EXPECT_FALSE(c.elector->Step());
  EXPECT_TRUE(c.elector->Leader().identity == "a");
  c.clock.Advance(milliseconds(3900));
  EXPECT_FALSE(c.elector->Step());
  c.clock.Advance(milliseconds(100));
  EXPECT_TRUE(c.elector->Step());
  EXPECT_EQ(Stored().holder, "c");
}

// Two candidates that read the same expired record: the conditional PUT
// lets only one win.
class StaleReadClient : public kube::FakeKubeClient {
 public:
  StatusOr<nlohmann::json> Get(const kube::Resource& resource,
                               std::string_view ns,
                               std::string_view name) override {
    if (stale_.has_value()) return *stale_;
    return FakeKubeClient::Get(resource, ns, name);
  }
  std::optional<nlohmann::json> stale_;
};

TEST(ElectionRaceTest, ConcurrentTakeoverHasOneWinner) {
  StaleReadClient api;
  base::FakeClock clock;
  LeaderElectionOptions options;
  options.lease_namespace = "ns";
  options.lease_name = "lock";
  options.identity = "old";
  LeaderElector old(&api, &clock, options);
  ASSERT_TRUE(old.Step());
  ASSERT_TRUE(old.Resign().ok());
  api.stale_ = *api.FakeKubeClient::Get(LeaseResource(), "ns", "lock");
  options.identity = "x";
  LeaderElector x(&api, &clock, options);
  options.identity = "y";
  LeaderElector y(&api, &clock, options);
  EXPECT_TRUE(x.Step());
  EXPECT_FALSE(y.Step());  // Its PUT carried the stale resourceVersion.
  EXPECT_FALSE(y.IsLeader());
  api.stale_.reset();
  auto record = ParseLease(*api.Get(LeaseResource(), "ns", "lock"));
  EXPECT_EQ(record->holder, "x");
}

TEST(ElectionRaceTest, CreateRaceHasOneWinner) {
  StaleReadClient api;
  base::FakeClock clock;
  LeaderElectionOptions options;
  options.lease_namespace = "ns";
  options.lease_name = "lock";
  options.identity = "x";
  LeaderElector x(&api, &clock, options);
  options.identity = "y";
  LeaderElector y(&api, &clock, options);
  api.FailNext(
      "get", Status(StatusCode::kNotFound, "NotFound: lock").WithHttpCode(404));
  ASSERT_TRUE(x.Step());
  // y read "not found" before x's create: its POST meets 409.
  api.FailNext(
      "get", Status(StatusCode::kNotFound, "NotFound: lock").WithHttpCode(404));
  EXPECT_FALSE(y.Step());
  EXPECT_TRUE(x.IsLeader());
}

TEST(ElectionRunTest, RunResignsWhenCancelled) {
  kube::FakeKubeClient api;
  base::FakeClock clock;
  LeaderElectionOptions options;
  options.lease_namespace = "ns";
  options.lease_name = "lock";
  options.identity = "a";
  LeaderElector a(&api, &clock, options);
  base::Cancellation cancel;
  int steps = 0;
  a.SetCallbacks([&](uint64_t) { cancel.Cancel(); }, [&] { ++steps; });
  a.Run(&cancel);  // Takes the Lease, is cancelled, resigns.
  EXPECT_FALSE(a.IsLeader());
  EXPECT_EQ(steps, 1);  // The stopped callback ran once.
  auto record = ParseLease(*api.Get(LeaseResource(), "ns", "lock"));
  EXPECT_EQ(record->holder, "");
}

}  // namespace
}  // namespace gcushare::ha
