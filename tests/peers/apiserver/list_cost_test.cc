// The list cost model: where kube-apiserver 1.26 serves each form of list
// from, what an answer costs, the slots, and the counts the HTTP handler
// records. No test depends on timing: sleeps are injected.
#include "tests/peers/apiserver/list_cost.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "testing/eventually.h"
#include "tests/peers/apiserver/testing/test_server.h"

namespace gcushare::apiserver {
namespace {

using std::chrono::milliseconds;
using std::chrono::nanoseconds;

TEST(ListSourceTest, AsKubeApiserver126ChoosesBetweenCacheAndEtcd) {
  struct Case {
    const char* rv;
    const char* match;
    int64_t limit;
    bool has_continue;
    ListSource want;
  };
  const Case cases[] = {
      {"", "", 0, false, ListSource::kEtcd},    // Consistent read.
      {"", "", 500, false, ListSource::kEtcd},  // Paged consistent read.
      {"0", "", 0, false, ListSource::kWatchCache},
      {"0", "", 500, false, ListSource::kWatchCache},  // Limit ignored.
      {"42", "", 0, false, ListSource::kWatchCache},   // NotOlderThan.
      {"42", "NotOlderThan", 0, false, ListSource::kWatchCache},
      {"42", "", 500, false, ListSource::kEtcd},  // Limit: etcd.
      {"42", "Exact", 0, false, ListSource::kEtcd},
      {"", "", 500, true, ListSource::kEtcd},  // Continue.
  };
  for (const Case& c : cases) {
    EXPECT_EQ(ListSourceOf(c.rv, c.match, c.limit, c.has_continue), c.want)
        << "rv=" << c.rv << " match=" << c.match << " limit=" << c.limit
        << " continue=" << c.has_continue;
  }
}

TEST(ListCostTest, CostIsPerRequestPlusPerMegabyte) {
  ListCostOptions options;
  options.etcd_ms_per_request = 13;
  options.etcd_ms_per_mb = 16;
  options.cache_ms_per_request = 1;
  options.cache_ms_per_mb = 12;
  ListCost cost(options);
  EXPECT_EQ(cost.CostOf(ListSource::kEtcd, 0), milliseconds(13));
  EXPECT_EQ(cost.CostOf(ListSource::kEtcd, 2'000'000), milliseconds(45));
  EXPECT_EQ(cost.CostOf(ListSource::kWatchCache, 500'000), milliseconds(7));
  EXPECT_TRUE(ListCostOptions().free());
  EXPECT_FALSE(KubeApiserver126().free());
}

TEST(ListCostTest, ChargeCountsAndSleepsTheCost) {
  ListCostOptions options;
  options.cache_ms_per_mb = 10;
  std::vector<nanoseconds> slept;
  ListCost cost(options, [&slept](nanoseconds d) { slept.push_back(d); });
  cost.Charge(ListSource::kWatchCache, 3'000'000);
  cost.Charge(ListSource::kEtcd, 100);  // Etcd is free here: no sleep.
  // What building the answer took already is not slept again.
  cost.Charge(ListSource::kWatchCache, 1'000'000, milliseconds(4));
  cost.Charge(ListSource::kWatchCache, 1'000'000, milliseconds(11));
  EXPECT_EQ(slept,
            (std::vector<nanoseconds>{milliseconds(30), milliseconds(6)}));
  EXPECT_EQ(cost.counts(ListSource::kWatchCache).requests, 3u);
  EXPECT_EQ(cost.counts(ListSource::kWatchCache).bytes, 5'000'000u);
  EXPECT_EQ(cost.counts(ListSource::kEtcd).requests, 1u);
  EXPECT_EQ(cost.counts(ListSource::kEtcd).bytes, 100u);
}

TEST(ListCostTest, LastAnswerIsWhenTheLatestCostEnded) {
  ListCostOptions options;
  options.cache_ms_per_mb = 10;
  std::chrono::steady_clock::time_point slept_at;
  ListCost cost(options, [&slept_at](nanoseconds) {
    slept_at = std::chrono::steady_clock::now();
  });
  EXPECT_EQ(cost.last_answer(), std::chrono::steady_clock::time_point());
  cost.Charge(ListSource::kWatchCache, 1'000'000);
  EXPECT_GE(cost.last_answer(), slept_at);  // After the cost, not before.
  const auto first = cost.last_answer();
  // A free answer (etcd costs nothing here) is an answer too.
  const auto before = std::chrono::steady_clock::now();
  cost.Charge(ListSource::kEtcd, 100);
  EXPECT_GE(cost.last_answer(), before);
  EXPECT_GE(cost.last_answer(), first);
}

// At most `concurrency` answers are costed at once; the others wait.
TEST(ListCostTest, AtMostConcurrencyAnswersAreCostedAtOnce) {
  ListCostOptions options;
  options.etcd_ms_per_request = 1;
  options.concurrency = 2;
  std::mutex mu;
  std::condition_variable cv;
  int inside = 0;
  int max_inside = 0;
  int released = 0;  // Sleeps allowed to end.
  ListCost cost(options, [&](nanoseconds) {
    std::unique_lock<std::mutex> lock(mu);
    ++inside;
    max_inside = std::max(max_inside, inside);
    cv.wait(lock, [&] { return released > 0; });
    --released;
    --inside;
  });
  std::vector<std::thread> lists;
  lists.reserve(3);
  for (int i = 0; i < 3; ++i) {
    lists.emplace_back([&] { cost.Charge(ListSource::kEtcd, 10); });
  }
  auto state = [&](int want_inside) {
    return gcushare::testing::Eventually([&] {
      std::lock_guard<std::mutex> lock(mu);
      return cost.counts(ListSource::kEtcd).requests == 3 &&
             inside == want_inside;
    });
  };
  // All three arrived (counted before they wait), two are costed.
  ASSERT_TRUE(state(2));
  {
    std::lock_guard<std::mutex> lock(mu);
    EXPECT_EQ(max_inside, 2);
    released = 1;
  }
  cv.notify_all();
  // The first ends; the third takes its slot.
  ASSERT_TRUE(gcushare::testing::Eventually([&] {
    std::lock_guard<std::mutex> lock(mu);
    return released == 0 && inside == 2;
  }));
  {
    std::lock_guard<std::mutex> lock(mu);
    released = 2;
  }
  cv.notify_all();
  for (std::thread& t : lists) t.join();
  EXPECT_EQ(max_inside, 2);
  EXPECT_EQ(inside, 0);
}

// The handler charges every list answer to the source kube-apiserver 1.26
// would serve it from, with the bytes it wrote.
TEST(ListCostHttpTest, EveryAnswerIsChargedToItsSource) {
  testing::TestServer s;
  for (const char* name : {"a", "b", "c"}) s.CreatePod("ns", name);
  ListCost& cost = s.server().list_cost();

  auto cached = s.Get("/api/v1/namespaces/ns/pods?resourceVersion=0&limit=1");
  ASSERT_EQ(cached.status, 200);
  EXPECT_EQ(cached.json["items"].size(), 3u);  // The cache ignores limit.
  EXPECT_EQ(cost.counts(ListSource::kWatchCache).requests, 1u);
  EXPECT_EQ(cost.counts(ListSource::kWatchCache).bytes, cached.body.size());
  EXPECT_EQ(cost.counts(ListSource::kEtcd).requests, 0u);

  // A consistent paged list: three pages from etcd.
  uint64_t bytes = 0;
  std::string path = "/api/v1/namespaces/ns/pods?limit=1";
  for (int page = 0; page < 3; ++page) {
    auto answer = s.Get(path);
    ASSERT_EQ(answer.status, 200);
    bytes += answer.body.size();
    const std::string token =
        answer.json["metadata"].value("continue", std::string());
    path = "/api/v1/namespaces/ns/pods?limit=1&continue=" + token;
  }
  EXPECT_EQ(cost.counts(ListSource::kEtcd).requests, 3u);
  EXPECT_EQ(cost.counts(ListSource::kEtcd).bytes, bytes);
  EXPECT_EQ(cost.counts(ListSource::kWatchCache).requests, 1u);
}

}  // namespace
}  // namespace gcushare::apiserver
