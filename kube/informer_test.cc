#include "kube/informer.h"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "base/testing/fake_clock.h"
#include "kube/curl_kube_client.h"
#include "kube/json_fields.h"
#include "kube/testing/api_objects.h"
#include "kube/testing/recording_handler.h"
#include "kube/testing/scripted_server.h"
#include "testing/eventually.h"

namespace gcushare::kube {
namespace {

using ::gcushare::kube::testing::BookmarkLine;
using ::gcushare::kube::testing::ChunkFeed;
using ::gcushare::kube::testing::FailureStatus;
using ::gcushare::kube::testing::Pod;
using ::gcushare::kube::testing::PodList;
using ::gcushare::kube::testing::RecordedRequest;
using ::gcushare::kube::testing::RecordingHandler;
using ::gcushare::kube::testing::ScriptedServer;
using ::gcushare::kube::testing::WatchLine;

constexpr char kPods[] = "/api/v1/namespaces/ns/pods";

// The pods collection of a scripted API server: lists answer from the
// current state, each watch request takes the next scripted response.
class PodsEndpoint {
 public:
  void SetList(const std::vector<nlohmann::json>& items,
               const std::string& rv) {
    std::lock_guard<std::mutex> lock(mu_);
    list_ = PodList(items, rv);
  }
  // The next watch request streams the returned feed.
  std::shared_ptr<ChunkFeed> NextWatchStreams() {
    auto feed = std::make_shared<ChunkFeed>();
    std::lock_guard<std::mutex> lock(mu_);
    watches_.push_back({feed, 0, ""});
    cv_.notify_all();
    return feed;
  }
  // The next watch request fails with this HTTP status.
  void NextWatchFails(int code, std::string body) {
    std::lock_guard<std::mutex> lock(mu_);
    watches_.push_back({nullptr, code, std::move(body)});
    cv_.notify_all();
  }
  // The next list request fails with this HTTP status.
  void NextListFails(int code, std::string body) {
    std::lock_guard<std::mutex> lock(mu_);
    list_failures_.emplace_back(code, std::move(body));
  }
  // Unblocks watch requests waiting for a script, so the server can stop.
  void Close() {
    std::lock_guard<std::mutex> lock(mu_);
    closed_ = true;
    cv_.notify_all();
  }
  void Install(ScriptedServer& server) {
    server.Handle("GET", kPods,
                  [this, &server](const httplib::Request& request,
                                  httplib::Response& res) {
                    if (!request.has_param("watch")) {
                      std::lock_guard<std::mutex> lock(mu_);
                      if (!list_failures_.empty()) {
                        auto [code, body] = list_failures_.front();
                        list_failures_.pop_front();
                        ScriptedServer::Json(res, code, body);
                        return;
                      }
                      ScriptedServer::Json(res, 200, list_);
                      return;
                    }
                    Scripted next = TakeWatch();
                    if (next.feed != nullptr) {
                      server.Stream(res, next.feed);
                    } else {
                      ScriptedServer::Json(res, next.code, next.body);
                    }
                  });
  }

 private:
  struct Scripted {
    std::shared_ptr<ChunkFeed> feed;
    int code;
    std::string body;
  };
  // Waits for the test to script this watch; an unscripted watch waits
  // until Close() and is then cut off.
  Scripted TakeWatch() {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait_for(lock, std::chrono::seconds(30),
                 [this] { return !watches_.empty() || closed_; });
    if (watches_.empty()) {
      auto ended = std::make_shared<ChunkFeed>();
      ended->Drop();
      return {ended, 0, ""};
    }
    Scripted next = watches_.front();
    watches_.pop_front();
    return next;
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::string list_ = PodList({}, "1");
  std::deque<Scripted> watches_;
  std::deque<std::pair<int, std::string>> list_failures_;
  bool closed_ = false;
};

using gcushare::testing::Eventually;

// Ends a watch as the API server ends one whose resourceVersion is gone: a
// 410 ERROR event.
void ExpireWatch(ChunkFeed& watch) {
  watch.Push(WatchLine(
      "ERROR", FailureStatus(410, "Expired", "too old resource version")));
  watch.End();
}

// RecordingHandler that also logs, apart, what a consumer keeping its own
// state of the objects the transform drops is told (OnUnkept & co.).
class UnkeptRecordingHandler : public RecordingHandler {
 public:
  void OnUnkept(const nlohmann::json& object) override {
    Note("unkept " + NameOf(object) + "@" + ResourceVersionOf(object));
  }
  void OnUnkeptDelete(const nlohmann::json& last_state) override {
    Note("unkept-delete " + NameOf(last_state) + "@" +
         ResourceVersionOf(last_state));
  }
  void OnRelistBegin() override { Note("relist-begin"); }
  void OnRelistEnd() override { Note("relist-end"); }

  std::vector<std::string> unkept_log() {
    std::lock_guard<std::mutex> lock(mu_);
    return log_;
  }
  bool WaitForUnkeptLog(size_t count) {
    return Eventually([&] { return unkept_log().size() >= count; });
  }

 private:
  void Note(std::string entry) {
    std::lock_guard<std::mutex> lock(mu_);
    log_.push_back(std::move(entry));
  }
  std::mutex mu_;
  std::vector<std::string> log_;  // Guarded by mu_.
};

// Keeps every pod but those named "plain-*".
std::optional<nlohmann::json> DropPlain(const nlohmann::json& pod) {
  if (NameOf(pod).rfind("plain-", 0) == 0) return std::nullopt;
  return pod;
}

bool IsWatchFrom(const RecordedRequest& request, const std::string& rv) {
  return request.path == kPods && request.Param("watch") == "true" &&
         request.Param("resourceVersion") == rv;
}

class InformerTest : public ::testing::Test {
 protected:
  InformerTest() {
    clock_.set_real_pause(std::chrono::microseconds(500));
    endpoint_.Install(server_);
  }

  void StartAll(int port = 0) {
    server_.Start(port);
    ClientConfig config;
    config.server = server_.url();
    KubeClientOptions options;
    options.clock = &clock_;
    options.retry.max_attempts = 2;
    client_ = std::move(CurlKubeClient::Create(config, options)).value();
    InformerOptions informer_options;
    informer_options.clock = &clock_;
    informer_options.transform = transform_;
    informer_options.unkept_text = unkept_text_;
    informer_options.kept_text = kept_text_;
    informer_options.list_form = list_form_;
    informer_ = std::make_unique<Informer>(client_.get(), Resource::Pods(),
                                           "ns", &handler_, informer_options);
    informer_->Start();
  }

  void TearDown() override {
    if (informer_ != nullptr) informer_->Stop();
    endpoint_.Close();
    server_.Stop();
  }

  ScriptedServer server_;
  PodsEndpoint endpoint_;
  base::FakeClock clock_;
  UnkeptRecordingHandler handler_;
  InformerOptions::Transform transform_;  // Null: keep everything.
  InformerOptions::UnkeptText unkept_text_;
  InformerOptions::KeptText kept_text_;
  ListForm list_form_ = ListForm::kWatchCache;
  std::unique_ptr<CurlKubeClient> client_;
  std::unique_ptr<Informer> informer_;
};

TEST_F(InformerTest, ListsThenWatchesAndKeepsTheStore) {
  endpoint_.SetList({Pod("ns", "p1", "1"), Pod("ns", "p2", "2")}, "10");
  auto watch = endpoint_.NextWatchStreams();
  StartAll();
  ASSERT_TRUE(informer_->WaitForSync(std::chrono::seconds(30)));
  EXPECT_TRUE(informer_->HasSynced());
  watch->Push(WatchLine("MODIFIED", Pod("ns", "p1", "11")) +
              WatchLine("ADDED", Pod("ns", "p3", "12")) +
              WatchLine("DELETED", Pod("ns", "p2", "13")) + BookmarkLine("14"));
  ASSERT_TRUE(handler_.WaitForLog(5));
  EXPECT_EQ(handler_.log(),
            (std::vector<std::string>{"add p1@1", "add p2@2", "update p1@1->11",
                                      "add p3@12", "delete p2@13"}));
  ASSERT_TRUE(
      Eventually([&] { return informer_->resource_version() == "14"; }));
  auto snapshot = informer_->Snapshot();
  ASSERT_EQ(snapshot.size(), 2u);
  EXPECT_EQ(NameOf(*snapshot[0]), "p1");
  EXPECT_EQ(ResourceVersionOf(*snapshot[0]), "11");
  EXPECT_EQ(NameOf(*snapshot[1]), "p3");
  ASSERT_NE(informer_->Get("ns/p3"), nullptr);
  EXPECT_EQ(informer_->Get("ns/p2"), nullptr);

  const auto watches = server_.requests();
  ASSERT_GE(watches.size(), 2u);
  // The first list from the watch cache, whole, as client-go's reflector.
  EXPECT_FALSE(watches[0].HasParam("watch"));
  EXPECT_EQ(watches[0].Param("resourceVersion"), "0");
  EXPECT_FALSE(watches[0].HasParam("limit"));
  EXPECT_TRUE(IsWatchFrom(watches[1], "10"));
  EXPECT_EQ(watches[1].Param("allowWatchBookmarks"), "true");
  EXPECT_EQ(watches[1].Param("timeoutSeconds"), "300");
}

TEST_F(InformerTest, RewatchesFromTheLastResourceVersionWhenTheServerEnds) {
  endpoint_.SetList({Pod("ns", "p1", "1")}, "10");
  auto first = endpoint_.NextWatchStreams();
  auto second = endpoint_.NextWatchStreams();
  StartAll();
  first->Push(WatchLine("ADDED", Pod("ns", "p2", "12")) + BookmarkLine("15"));
  first->End();
  ASSERT_TRUE(server_.WaitForRequests(
      [](const RecordedRequest& r) { return IsWatchFrom(r, "15"); }));
  second->Push(WatchLine("MODIFIED", Pod("ns", "p2", "16")));
  ASSERT_TRUE(handler_.WaitForLog(3));
  EXPECT_EQ(handler_.log(), (std::vector<std::string>{"add p1@1", "add p2@12",
                                                      "update p2@12->16"}));
  EXPECT_EQ(informer_->lists(), 1u);
}

TEST_F(InformerTest, ErrorEvent410RelistsWithoutGhostsOrLostUpdates) {
  endpoint_.SetList(
      {Pod("ns", "p1", "1"), Pod("ns", "p2", "2"), Pod("ns", "p3", "3")}, "10");
  auto first = endpoint_.NextWatchStreams();
  auto after_relist = endpoint_.NextWatchStreams();
  StartAll();
  ASSERT_TRUE(handler_.WaitForLog(3));
  // While the watch is broken, the server moves on.
  endpoint_.SetList(
      {Pod("ns", "p1", "11"), Pod("ns", "p3", "20"), Pod("ns", "p4", "21")},
      "22");
  first->Push(WatchLine("MODIFIED", Pod("ns", "p1", "11")) +
              WatchLine("ERROR", FailureStatus(410, "Expired",
                                               "too old resource version")));
  first->End();
  ASSERT_TRUE(server_.WaitForRequests(
      [](const RecordedRequest& r) { return IsWatchFrom(r, "22"); }));
  ASSERT_TRUE(handler_.WaitForLog(7));
  EXPECT_EQ(handler_.log(),
            (std::vector<std::string>{"add p1@1", "add p2@2", "add p3@3",
                                      "update p1@1->11", "update p3@3->20",
                                      "add p4@21", "delete p2@2"}));
  EXPECT_EQ(handler_.cache(), (std::map<std::string, std::string>{
                                  {"p1", "11"}, {"p3", "20"}, {"p4", "21"}}));
  EXPECT_EQ(informer_->size(), 3u);
  EXPECT_EQ(informer_->lists(), 2u);
  after_relist->Push(WatchLine("DELETED", Pod("ns", "p4", "23")));
  ASSERT_TRUE(handler_.WaitForLog(8));
  EXPECT_EQ(handler_.log().back(), "delete p4@23");
  // The relist asked the watch cache for a state at least as fresh as the
  // last event seen (11), whole.
  std::vector<RecordedRequest> lists;
  for (const RecordedRequest& r : server_.requests()) {
    if (!r.HasParam("watch")) lists.push_back(r);
  }
  ASSERT_EQ(lists.size(), 2u);
  EXPECT_EQ(lists[0].Param("resourceVersion"), "0");
  EXPECT_EQ(lists[1].Param("resourceVersion"), "11");
  EXPECT_FALSE(lists[1].HasParam("limit"));
}

// A relist whose resourceVersion the server refuses (504 too large: its
// watch cache is behind; or 410) is retried at once as a consistent paged
// list; the next relist asks the cache again.
TEST_F(InformerTest, RefusedRelistFallsBackToAConsistentPagedList) {
  endpoint_.SetList({Pod("ns", "p1", "1"), Pod("ns", "p2", "2")}, "10");
  auto first = endpoint_.NextWatchStreams();
  StartAll();
  ASSERT_TRUE(handler_.WaitForLog(2));
  endpoint_.SetList({Pod("ns", "p1", "11")}, "12");
  // Twice: the client retries a 504 once (retry.max_attempts = 2).
  for (int i = 0; i < 2; ++i) {
    endpoint_.NextListFails(
        504, FailureStatus(504, "Timeout",
                           "Too large resource version: 11, current: 10")
                 .dump());
  }
  auto second = endpoint_.NextWatchStreams();
  first->Push(WatchLine("MODIFIED", Pod("ns", "p1", "11")) +
              WatchLine("ERROR", FailureStatus(410, "Expired",
                                               "too old resource version")));
  first->End();
  ASSERT_TRUE(server_.WaitForRequests(
      [](const RecordedRequest& r) { return IsWatchFrom(r, "12"); }));
  ASSERT_TRUE(handler_.WaitForLog(4));
  EXPECT_EQ(handler_.log(),
            (std::vector<std::string>{"add p1@1", "add p2@2", "update p1@1->11",
                                      "delete p2@2"}));
  EXPECT_EQ(informer_->lists(), 2u);  // One relist, two requests.

  // Once more: the cache is asked again.
  endpoint_.NextWatchStreams();
  second->Push(
      WatchLine("ERROR", FailureStatus(410, "Expired", "too old resource")));
  second->End();
  std::vector<RecordedRequest> lists;
  ASSERT_TRUE(Eventually([&] {
    lists.clear();
    for (const RecordedRequest& r : server_.requests()) {
      if (!r.HasParam("watch")) lists.push_back(r);
    }
    return lists.size() >= 5u;
  }));
  EXPECT_EQ(lists[1].Param("resourceVersion"), "11");  // Refused,
  EXPECT_EQ(lists[2].Param("resourceVersion"), "11");  // and retried.
  EXPECT_FALSE(lists[3].HasParam("resourceVersion"));  // Consistent,
  EXPECT_EQ(lists[3].Param("limit"), "500");           // paged.
  EXPECT_EQ(lists[4].Param("resourceVersion"), "12");  // The cache again.
  EXPECT_FALSE(lists[4].HasParam("limit"));
}

TEST_F(InformerTest, ConsistentPagedFormNeverAsksTheCache) {
  list_form_ = ListForm::kConsistentPaged;
  endpoint_.SetList({Pod("ns", "p1", "1")}, "10");
  auto first = endpoint_.NextWatchStreams();
  endpoint_.NextWatchStreams();
  StartAll();
  ASSERT_TRUE(handler_.WaitForLog(1));
  first->Push(WatchLine("MODIFIED", Pod("ns", "p1", "11")) +
              WatchLine("ERROR", FailureStatus(410, "Expired", "too old")));
  first->End();
  std::vector<RecordedRequest> lists;
  ASSERT_TRUE(Eventually([&] {
    lists.clear();
    for (const RecordedRequest& r : server_.requests()) {
      if (!r.HasParam("watch")) lists.push_back(r);
    }
    return lists.size() >= 2u;
  }));
  for (const RecordedRequest& r : lists) {
    EXPECT_FALSE(r.HasParam("resourceVersion"));
    EXPECT_EQ(r.Param("limit"), "500");
  }
}

TEST_F(InformerTest, Http410RelistsWithoutGhostsOrLostUpdates) {
  endpoint_.SetList({Pod("ns", "p1", "1"), Pod("ns", "p2", "2")}, "10");
  StartAll();
  ASSERT_TRUE(handler_.WaitForLog(2));
  // The first watch waits for its script (PodsEndpoint::TakeWatch) until the
  // collection has moved on; only then is it refused as too old, so the
  // relist always sees the new state (scripting the refusal before the
  // start let the relist race SetList and sometimes read the old list).
  endpoint_.SetList({Pod("ns", "p2", "30")}, "31");
  endpoint_.NextWatchFails(
      410, FailureStatus(410, "Gone", "too old resource version: 10").dump());
  endpoint_.NextWatchStreams();
  ASSERT_TRUE(server_.WaitForRequests(
      [](const RecordedRequest& r) { return IsWatchFrom(r, "31"); }));
  ASSERT_TRUE(handler_.WaitForLog(4));
  EXPECT_EQ(handler_.log(),
            (std::vector<std::string>{"add p1@1", "add p2@2", "update p2@2->30",
                                      "delete p1@1"}));
  EXPECT_EQ(handler_.cache(),
            (std::map<std::string, std::string>{{"p2", "30"}}));
}

TEST_F(InformerTest, MalformedLineIsLoggedAndTheWatchRecovers) {
  endpoint_.SetList({}, "10");
  auto first = endpoint_.NextWatchStreams();
  auto second = endpoint_.NextWatchStreams();
  StartAll();
  first->Push(WatchLine("ADDED", Pod("ns", "p1", "11")) +
              "{\"type\":\"MODIFIED\",\"object\":{\"metadata\"::}}\n");
  ASSERT_TRUE(server_.WaitForRequests(
      [](const RecordedRequest& r) { return IsWatchFrom(r, "11"); }));
  second->Push(WatchLine("MODIFIED", Pod("ns", "p1", "12")));
  ASSERT_TRUE(handler_.WaitForLog(2));
  EXPECT_EQ(handler_.log(),
            (std::vector<std::string>{"add p1@11", "update p1@11->12"}));
  EXPECT_EQ(informer_->lists(), 1u);  // The RV was still good: no relist.
  first->Drop();
}

TEST_F(InformerTest, DroppedConnectionRewatchesFromTheLastResourceVersion) {
  endpoint_.SetList({}, "10");
  auto first = endpoint_.NextWatchStreams();
  auto second = endpoint_.NextWatchStreams();
  StartAll();
  const std::string half = WatchLine("ADDED", Pod("ns", "p2", "13"));
  first->Push(WatchLine("ADDED", Pod("ns", "p1", "12")) +
              half.substr(0, half.size() / 2));
  first->Drop();
  ASSERT_TRUE(server_.WaitForRequests(
      [](const RecordedRequest& r) { return IsWatchFrom(r, "12"); }));
  second->Push(half);  // The server sends the event again.
  ASSERT_TRUE(handler_.WaitForLog(2));
  EXPECT_EQ(handler_.log(),
            (std::vector<std::string>{"add p1@12", "add p2@13"}));
}

TEST_F(InformerTest, RecoversWhenTheServerRestartsOnTheSamePort) {
  endpoint_.SetList({Pod("ns", "p1", "1"), Pod("ns", "p2", "2")}, "10");
  auto watch = endpoint_.NextWatchStreams();
  StartAll();
  ASSERT_TRUE(handler_.WaitForLog(2));
  watch->Push(WatchLine("MODIFIED", Pod("ns", "p1", "11")));
  ASSERT_TRUE(handler_.WaitForLog(3));
  const int port = server_.port();
  server_.Stop();  // Cuts the watch; connections are refused for a while.

  // A new server (say, a restarted API server with fresh etcd state) that
  // no longer knows resourceVersion 11.
  PodsEndpoint endpoint;
  ScriptedServer restarted;
  endpoint.Install(restarted);
  endpoint.SetList({Pod("ns", "p1", "40"), Pod("ns", "p3", "41")}, "42");
  endpoint.NextWatchFails(
      410, FailureStatus(410, "Expired", "too old resource version").dump());
  auto fresh_watch = endpoint.NextWatchStreams();
  restarted.Start(port);
  ASSERT_TRUE(restarted.WaitForRequests(
      [](const RecordedRequest& r) { return IsWatchFrom(r, "42"); }));
  ASSERT_TRUE(handler_.WaitForLog(6));
  EXPECT_EQ(handler_.cache(),
            (std::map<std::string, std::string>{{"p1", "40"}, {"p3", "41"}}));
  fresh_watch->Push(WatchLine("ADDED", Pod("ns", "p4", "43")));
  ASSERT_TRUE(handler_.WaitForLog(7));
  EXPECT_EQ(informer_->size(), 3u);
  informer_->Stop();  // Before `restarted` goes away.
  endpoint.Close();
  restarted.Stop();
}

TEST_F(InformerTest, ListFailuresBackOffAndRetry) {
  std::atomic<int> lists{0};
  ScriptedServer server;
  server.Handle(
      "GET", kPods,
      [&](const httplib::Request& request, httplib::Response& res) {
        if (request.has_param("watch")) {
          ScriptedServer::Json(res, 200, "");  // Ends at once.
          return;
        }
        if (lists++ < 2) {
          ScriptedServer::Json(
              res, 403, FailureStatus(403, "Forbidden", "no RBAC yet").dump());
        } else {
          ScriptedServer::Json(res, 200, PodList({Pod("ns", "p1", "1")}, "5"));
        }
      });
  server.Start();
  ClientConfig config;
  config.server = server.url();
  KubeClientOptions options;
  options.clock = &clock_;
  auto client = std::move(CurlKubeClient::Create(config, options)).value();
  InformerOptions informer_options;
  informer_options.clock = &clock_;
  informer_options.backoff.jitter = 0;
  Informer informer(client.get(), Resource::Pods(), "ns", &handler_,
                    informer_options);
  informer.Start();
  ASSERT_TRUE(informer.WaitForSync(std::chrono::seconds(30)));
  informer.Stop();
  const auto sleeps = clock_.sleeps();
  ASSERT_GE(sleeps.size(), 2u);
  EXPECT_EQ(sleeps[0], std::chrono::milliseconds(500));
  EXPECT_EQ(sleeps[1], std::chrono::milliseconds(1000));
  EXPECT_EQ(handler_.log(), std::vector<std::string>{"add p1@1"});
}

TEST_F(InformerTest, StopEndsAnIdleWatch) {
  endpoint_.SetList({Pod("ns", "p1", "1")}, "10");
  endpoint_.NextWatchStreams();  // Never sends anything.
  StartAll();
  ASSERT_TRUE(informer_->WaitForSync(std::chrono::seconds(30)));
  ASSERT_TRUE(server_.WaitForRequests(
      [](const RecordedRequest& r) { return IsWatchFrom(r, "10"); }));
  informer_->Stop();  // Returns once the stream is cancelled.
  EXPECT_EQ(informer_->size(), 1u);
  EXPECT_TRUE(informer_->HasSynced());
}

TEST_F(InformerTest, WaitForSyncTimesOutWithoutAServer) {
  base::FakeClock clock;
  clock.set_real_pause(std::chrono::microseconds(500));
  ClientConfig config;
  config.server = "http://127.0.0.1:1";  // Nothing listens on port 1.
  KubeClientOptions options;
  options.clock = &clock;
  auto client = std::move(CurlKubeClient::Create(config, options)).value();
  InformerOptions informer_options;
  informer_options.clock = &clock;
  Informer informer(client.get(), Resource::Nodes(), "", &handler_,
                    informer_options);
  informer.Start();
  EXPECT_FALSE(informer.WaitForSync(std::chrono::milliseconds(50)));
  EXPECT_FALSE(informer.HasSynced());
  informer.Stop();
}

}  // namespace
}  // namespace gcushare::kube

namespace gcushare::kube {
namespace {

TEST_F(InformerTest, ReportsObjectsTheTransformDropsAndTheirDeletion) {
  transform_ = DropPlain;
  endpoint_.SetList({Pod("ns", "p1", "1"), Pod("ns", "plain-a", "2")}, "10");
  auto watch = endpoint_.NextWatchStreams();
  StartAll();
  ASSERT_TRUE(informer_->WaitForSync(std::chrono::seconds(30)));
  watch->Push(WatchLine("MODIFIED", Pod("ns", "plain-a", "11")) +
              WatchLine("DELETED", Pod("ns", "plain-a", "12")) +
              WatchLine("DELETED", Pod("ns", "p1", "13")));
  ASSERT_TRUE(handler_.WaitForLog(2));
  ASSERT_TRUE(handler_.WaitForUnkeptLog(5));
  EXPECT_EQ(handler_.log(),
            (std::vector<std::string>{"add p1@1", "delete p1@13"}));
  EXPECT_EQ(handler_.unkept_log(),
            (std::vector<std::string>{"relist-begin", "unkept plain-a@2",
                                      "relist-end", "unkept plain-a@11",
                                      "unkept-delete plain-a@12"}));
  EXPECT_EQ(informer_->size(), 0u);
}

// The text hook sees the items of the first list (into an empty store) as
// the server wrote them; what it takes is neither decoded nor reported,
// what it declines goes the usual way. A relist into a store that holds
// objects does not offer it (a dropped object might be stored there).
TEST_F(InformerTest, UnkeptTextHookServesTheFirstListOnly) {
  transform_ = DropPlain;
  std::mutex mu;
  std::vector<std::string> taken;    // Guarded by mu.
  std::vector<std::string> offered;  // Guarded by mu.
  unkept_text_ = [&](std::string_view text) {
    std::lock_guard<std::mutex> lock(mu);
    const nlohmann::json object = nlohmann::json::parse(text);
    offered.push_back(NameOf(object));
    if (NameOf(object) != "plain-b") return false;
    taken.push_back(NameOf(object) + "@" + ResourceVersionOf(object));
    return true;
  };
  endpoint_.SetList({Pod("ns", "p1", "1"), Pod("ns", "plain-a", "2"),
                     Pod("ns", "plain-b", "3")},
                    "10");
  auto first = endpoint_.NextWatchStreams();
  endpoint_.NextWatchStreams();
  StartAll();
  ASSERT_TRUE(informer_->WaitForSync(std::chrono::seconds(30)));
  EXPECT_EQ(handler_.log(), (std::vector<std::string>{"add p1@1"}));
  EXPECT_EQ(handler_.unkept_log(),
            (std::vector<std::string>{"relist-begin", "unkept plain-a@2",
                                      "relist-end"}));
  {
    std::lock_guard<std::mutex> lock(mu);
    EXPECT_EQ(offered, (std::vector<std::string>{"p1", "plain-a", "plain-b"}));
    EXPECT_EQ(taken, (std::vector<std::string>{"plain-b@3"}));
  }
  EXPECT_EQ(informer_->size(), 1u);

  // A relist after 410: p1 is stored, so nothing is offered and plain-b is
  // reported as any dropped object.
  ExpireWatch(*first);
  ASSERT_TRUE(handler_.WaitForUnkeptLog(7));
  EXPECT_EQ(
      handler_.unkept_log(),
      (std::vector<std::string>{
          "relist-begin", "unkept plain-a@2", "relist-end", "relist-begin",
          "unkept plain-a@2", "unkept plain-b@3", "relist-end"}));
  std::lock_guard<std::mutex> lock(mu);
  EXPECT_EQ(offered.size(), 3u);
  EXPECT_EQ(taken.size(), 1u);
  EXPECT_EQ(informer_->lists(), 2u);
}

TEST_F(InformerTest, KeptTextHookStoresWhatItTookWithoutReporting) {
  transform_ = DropPlain;
  std::mutex mu;
  std::vector<std::string> offered;  // Guarded by mu.
  kept_text_ = [&](std::string_view text) -> std::optional<nlohmann::json> {
    std::lock_guard<std::mutex> lock(mu);
    const nlohmann::json object = nlohmann::json::parse(text);
    offered.push_back(NameOf(object));
    if (NameOf(object) != "p2") return std::nullopt;
    nlohmann::json kept = {{"metadata", object["metadata"]}};
    return kept;
  };
  endpoint_.SetList(
      {Pod("ns", "p1", "1"), Pod("ns", "p2", "2"), Pod("ns", "plain-a", "3")},
      "10");
  auto first = endpoint_.NextWatchStreams();
  StartAll();
  ASSERT_TRUE(informer_->WaitForSync(std::chrono::seconds(30)));
  // p2 was the hook's: stored, not reported; plain-a is dropped as usual.
  EXPECT_EQ(handler_.log(), (std::vector<std::string>{"add p1@1"}));
  EXPECT_EQ(informer_->size(), 2u);
  Informer::ObjectPtr p2 = informer_->Get("ns/p2");
  ASSERT_NE(p2, nullptr);
  EXPECT_EQ(ResourceVersionOf(*p2), "2");
  {
    std::lock_guard<std::mutex> lock(mu);
    EXPECT_EQ(offered, (std::vector<std::string>{"p1", "p2", "plain-a"}));
  }
  // The watch then reports p2 against the kept form the hook gave.
  first->Push(WatchLine("MODIFIED", Pod("ns", "p2", "11")));
  ASSERT_TRUE(handler_.WaitForLog(2));
  EXPECT_EQ(handler_.log()[1], "update p2@2->11");
}

TEST_F(InformerTest, RelistBracketsTheUnkeptObjectsStillThere) {
  transform_ = DropPlain;
  endpoint_.SetList({Pod("ns", "plain-a", "1"), Pod("ns", "plain-b", "2")},
                    "10");
  auto first = endpoint_.NextWatchStreams();
  endpoint_.NextWatchStreams();
  StartAll();
  ASSERT_TRUE(handler_.WaitForUnkeptLog(4));
  // plain-a is deleted while the watch is broken: the relist does not show
  // it, so a consumer sweeping at relist-end releases it.
  endpoint_.SetList({Pod("ns", "plain-b", "2")}, "20");
  ExpireWatch(*first);
  ASSERT_TRUE(handler_.WaitForUnkeptLog(7));
  EXPECT_EQ(
      handler_.unkept_log(),
      (std::vector<std::string>{
          "relist-begin", "unkept plain-a@1", "unkept plain-b@2", "relist-end",
          "relist-begin", "unkept plain-b@2", "relist-end"}));
  EXPECT_TRUE(handler_.log().empty());
  EXPECT_EQ(informer_->lists(), 2u);
}

}  // namespace
}  // namespace gcushare::kube
