// Watches over real HTTP, read from a raw socket: framing, initial state,
// resumption, expiry, bookmarks, selector transitions, timeouts, fan-out.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "tests/peers/apiserver/testing/test_server.h"

namespace gcushare::apiserver {
namespace {

using testing::HttpResult;
using testing::TestServer;
using testing::WatchReader;

constexpr char kMerge[] = "application/merge-patch+json";

std::string Type(const std::optional<Json>& e) {
  return e ? e->value("type", "") : "<none>";
}
std::string Name(const std::optional<Json>& e) {
  return e ? (*e)["object"]["metadata"].value("name", "") : "<none>";
}

TEST(WatchHttpTest, FromZeroSendsStateThenLiveEvents) {
  TestServer s;
  s.CreatePod("default", "a");
  s.CreatePod("default", "b");
  WatchReader w(s.port(),
                "/api/v1/namespaces/default/pods?watch=true&"
                "resourceVersion=0");
  EXPECT_EQ(w.status(), 200);
  EXPECT_EQ(w.headers().at("content-type"), "application/json");
  EXPECT_EQ(w.headers().at("transfer-encoding"), "chunked");
  // The reader asked for gzip; a watch is never compressed.
  EXPECT_EQ(w.headers().count("content-encoding"), 0u);
  auto first = w.Next();
  auto second = w.Next();
  EXPECT_EQ(Type(first), "ADDED");
  EXPECT_EQ(Name(first), "a");
  EXPECT_EQ(Type(second), "ADDED");
  EXPECT_EQ(Name(second), "b");
  EXPECT_EQ((*first)["object"]["kind"], "Pod");

  s.CreatePod("default", "c");
  auto added = w.Next();
  EXPECT_EQ(Type(added), "ADDED");
  EXPECT_EQ(Name(added), "c");
  ASSERT_EQ(s.Patch("/api/v1/namespaces/default/pods/a",
                    R"({"metadata":{"labels":{"x":"y"}}})", kMerge)
                .status,
            200);
  auto modified = w.Next();
  EXPECT_EQ(Type(modified), "MODIFIED");
  EXPECT_EQ((*modified)["object"]["metadata"]["labels"]["x"], "y");
  EXPECT_EQ((*modified)["object"]["metadata"]["resourceVersion"], "4");
  ASSERT_EQ(s.Delete("/api/v1/namespaces/default/pods/b").status, 200);
  auto deleted = w.Next();
  EXPECT_EQ(Type(deleted), "DELETED");
  EXPECT_EQ(Name(deleted), "b");
  EXPECT_EQ((*deleted)["object"]["metadata"]["resourceVersion"], "5");
}

TEST(WatchHttpTest, NoResourceVersionAlsoSendsTheState) {
  TestServer s;
  s.CreateNode("n1");
  WatchReader w(s.port(), "/api/v1/nodes?watch=1");
  auto e = w.Next();
  EXPECT_EQ(Type(e), "ADDED");
  EXPECT_EQ(Name(e), "n1");
}

TEST(WatchHttpTest, ResumesAfterAListResourceVersion) {
  TestServer s;
  s.CreatePod("default", "a");
  HttpResult list = s.Get("/api/v1/pods");
  std::string rv = list.json["metadata"]["resourceVersion"];
  s.CreatePod("default", "b");  // After the list: replayed.
  WatchReader w(s.port(),
                "/api/v1/pods?watch=true&allowWatchBookmarks=true&"
                "resourceVersion=" +
                    rv);
  auto e = w.NextNonBookmark();
  EXPECT_EQ(Type(e), "ADDED");
  EXPECT_EQ(Name(e), "b");
  s.CreatePod("default", "c");
  EXPECT_EQ(Name(w.NextNonBookmark()), "c");
}

TEST(WatchHttpTest, TooOldResourceVersionIsAnErrorEvent) {
  ServerOptions options;
  options.history = 2;
  TestServer s(options);
  for (const char* name : {"a", "b", "c", "d"}) s.CreatePod("default", name);
  WatchReader w(s.port(), "/api/v1/pods?watch=true&resourceVersion=1");
  EXPECT_EQ(w.status(), 200);
  auto e = w.Next();
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(DumpJson(*e),
            R"({"type":"ERROR","object":{"kind":"Status","apiVersion":"v1",)"
            R"("metadata":{},"status":"Failure","message":"too old resource )"
            R"x(version: 1 (2)","reason":"Expired","code":410}})x");
  EXPECT_TRUE(w.WaitForEnd());
  EXPECT_FALSE(w.Next().has_value());
  // RV 2 is exactly the oldest resumable one.
  WatchReader ok(s.port(), "/api/v1/pods?watch=true&resourceVersion=2");
  EXPECT_EQ(Name(ok.Next()), "c");
}

TEST(WatchHttpTest, FutureResourceVersionIsATimeoutErrorEvent) {
  TestServer s;
  WatchReader w(s.port(), "/api/v1/pods?watch=true&resourceVersion=50");
  auto e = w.Next();
  EXPECT_EQ(Type(e), "ERROR");
  EXPECT_EQ((*e)["object"]["code"], 504);
  EXPECT_TRUE(w.WaitForEnd());
}

TEST(WatchHttpTest, BookmarksOnlyWhenAskedFor) {
  ServerOptions options;
  options.bookmark_interval = std::chrono::milliseconds(50);
  TestServer s(options);
  s.CreatePod("default", "a");
  WatchReader w(s.port(), "/api/v1/pods?watch=true&allowWatchBookmarks=true");
  EXPECT_EQ(Type(w.Next()), "ADDED");
  auto b = w.Next();
  ASSERT_EQ(Type(b), "BOOKMARK");
  EXPECT_EQ(DumpJson((*b)["object"]),
            R"({"kind":"Pod","apiVersion":"v1","metadata":{)"
            R"("resourceVersion":"1","creationTimestamp":null},)"
            R"("spec":{"containers":null},"status":{}})");
  // Without allowWatchBookmarks, a whole (short) watch carries none.
  WatchReader plain(s.port(), "/api/v1/pods?watch=true&timeoutSeconds=1");
  std::vector<std::string> types;
  while (auto e = plain.Next()) types.push_back(Type(e));
  EXPECT_TRUE(plain.ended());
  EXPECT_EQ(types, std::vector<std::string>{"ADDED"});
}

TEST(WatchHttpTest, SendInitialEventsEndsWithAnnotatedBookmark) {
  TestServer s;
  s.CreateNode("n1");
  WatchReader w(s.port(),
                "/api/v1/nodes?watch=true&sendInitialEvents=true&"
                "allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan");
  EXPECT_EQ(Type(w.Next()), "ADDED");
  auto end = w.Next();
  ASSERT_EQ(Type(end), "BOOKMARK");
  EXPECT_EQ(
      (*end)["object"]["metadata"]["annotations"]["k8s.io/initial-events-end"],
      "true");
  EXPECT_EQ((*end)["object"]["kind"], "Node");
}

TEST(WatchHttpTest, SelectorTransitionsAreAddedAndDeleted) {
  TestServer s;
  s.CreatePod("default", "p", {{"app", "x"}});
  WatchReader w(s.port(), "/api/v1/pods?watch=true&labelSelector=app%3Dweb");
  const std::string pod = "/api/v1/namespaces/default/pods/p";
  ASSERT_EQ(
      s.Patch(pod, R"({"metadata":{"labels":{"app":"web"}}})", kMerge).status,
      200);
  auto in = w.Next();
  EXPECT_EQ(Type(in), "ADDED");
  EXPECT_EQ(Name(in), "p");
  ASSERT_EQ(
      s.Patch(pod, R"({"metadata":{"labels":{"app":"db"}}})", kMerge).status,
      200);
  auto out = w.Next();
  EXPECT_EQ(Type(out), "DELETED");
  EXPECT_EQ((*out)["object"]["metadata"]["labels"]["app"], "web");
  EXPECT_EQ((*out)["object"]["metadata"]["resourceVersion"], "3");
}

TEST(WatchHttpTest, FieldSelectorAndNamespaceScopeTheWatch) {
  TestServer s;
  WatchReader w(s.port(),
                "/api/v1/namespaces/team/pods?watch=true&"
                "fieldSelector=spec.nodeName%3Dn1");
  s.CreatePod("other", "x", Json::object(), "n1");
  s.CreatePod("team", "y", Json::object(), "n2");
  s.CreatePod("team", "z", Json::object(), "n1");
  auto e = w.Next();
  EXPECT_EQ(Name(e), "z");
}

TEST(WatchHttpTest, LegacyWatchPathOfOneObject) {
  TestServer s;
  s.CreateNode("n1");
  s.CreateNode("n2");
  WatchReader w(s.port(), "/api/v1/watch/nodes/n2");
  auto e = w.Next();
  EXPECT_EQ(Type(e), "ADDED");
  EXPECT_EQ(Name(e), "n2");
}

TEST(WatchHttpTest, WatchChunkBytesSplitsEveryLine) {
  ServerOptions options;
  options.watch_chunk_bytes = 7;
  TestServer s(options);
  s.CreatePod("default", "a");
  WatchReader w(s.port(), "/api/v1/pods?watch=true&resourceVersion=0");
  EXPECT_EQ(Name(w.Next()), "a");
  s.CreatePod("default", "b");
  EXPECT_EQ(Name(w.Next()), "b");
  WatchReader expired(s.port(), "/api/v1/pods?watch=true&resourceVersion=99");
  EXPECT_EQ(Type(expired.Next()), "ERROR");
  for (const WatchReader* reader : {&w, &expired}) {
    ASSERT_GT(reader->chunk_sizes().size(), 10u);
    for (size_t size : reader->chunk_sizes()) EXPECT_LE(size, 7u);
  }
}

TEST(WatchHttpTest, OneChunkPerLineByDefault) {
  TestServer s;
  s.CreatePod("default", "a");
  WatchReader w(s.port(), "/api/v1/pods?watch=true&resourceVersion=0");
  EXPECT_EQ(Name(w.Next()), "a");
  ASSERT_EQ(w.chunk_sizes().size(), 1u);
  EXPECT_GT(w.chunk_sizes()[0], 100u);  // The whole line.
}

TEST(WatchHttpTest, TimeoutSecondsEndsTheStreamCleanly) {
  TestServer s;
  WatchReader w(s.port(), "/api/v1/pods?watch=true&timeoutSeconds=1");
  EXPECT_TRUE(w.WaitForEnd(std::chrono::seconds(10)));
}

TEST(WatchHttpTest, StoppingTheServerEndsWatches) {
  auto s = std::make_unique<TestServer>();
  WatchReader w(s->port(), "/api/v1/pods?watch=true");
  s.reset();
  EXPECT_TRUE(w.WaitForEnd());
}

TEST(WatchHttpTest, HundredsOfConcurrentWatchersAllSeeAWrite) {
  TestServer s;
  constexpr int kWatchers = 300;
  std::vector<std::unique_ptr<WatchReader>> watchers;
  for (int i = 0; i < kWatchers; ++i) {
    watchers.push_back(std::make_unique<WatchReader>(
        s.port(), "/api/v1/nodes?watch=true&resourceVersion=0"));
    ASSERT_EQ(watchers.back()->status(), 200);
  }
  // Every stream is registered once its response headers arrived.
  s.CreateNode("n1");
  s.CreateNode("n2");
  for (auto& w : watchers) {
    EXPECT_EQ(Name(w->Next(std::chrono::seconds(30))), "n1");
    EXPECT_EQ(Name(w->Next(std::chrono::seconds(30))), "n2");
  }
  EXPECT_EQ(s.server().store().WatchCount(), static_cast<size_t>(kWatchers));
}

}  // namespace
}  // namespace gcushare::apiserver
