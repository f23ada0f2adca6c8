#include "tests/peers/apiserver/object_store.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "tests/peers/apiserver/object_meta.h"

namespace gcushare::apiserver {
namespace {

Json Pod(const std::string& name, const std::string& app = "a") {
  return {{"kind", "Pod"},
          {"apiVersion", "v1"},
          {"metadata",
           {{"name", name}, {"namespace", "ns"}, {"labels", {{"app", app}}}}}};
}

std::vector<std::string> Drain(WatchStream& stream) {
  std::vector<std::string> lines;
  stream.PopAll(std::chrono::steady_clock::now(), &lines);
  return lines;
}

Json Event(const std::string& line) {
  auto j = ParseJson(line);
  EXPECT_TRUE(j.ok()) << line;
  return j.ok() ? *j : Json();
}

ObjectStore::WatchSpec PodsWatch(ObjectStore::WatchSpec::Start start,
                                 int64_t rv = 0) {
  ObjectStore::WatchSpec spec;
  spec.resource = "pods";
  spec.matches = [](const Json&) { return true; };
  spec.start = start;
  spec.rv = rv;
  spec.bookmark_template = {
      {"kind", "Pod"}, {"apiVersion", "v1"}, {"metadata", Json::object()}};
  return spec;
}

TEST(ObjectStoreTest, EveryWriteBumpsOneGlobalCounter) {
  ObjectStore store({});
  EXPECT_EQ(store.CurrentRv(), 0);
  auto a = store.Create("pods", "ns/a", Pod("a"));
  ASSERT_TRUE(a.ok());
  EXPECT_EQ((*a)->rv, 1);
  EXPECT_EQ(MetaString((*a)->object, "resourceVersion"), "1");
  auto n = store.Create("nodes", "n1", {{"metadata", {{"name", "n1"}}}});
  ASSERT_TRUE(n.ok());
  EXPECT_EQ((*n)->rv, 2);
  Json changed = Pod("a", "b");
  auto b = store.Replace("pods", "ns/a", changed, 1);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ((*b)->rv, 3);
  auto d = store.Delete("pods", "ns/a", 0);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ((*d)->rv, 4);
  EXPECT_EQ(MetaString((*d)->object, "resourceVersion"), "4");
  EXPECT_EQ(store.CurrentRv(), 4);
  EXPECT_EQ(store.Get("pods", "ns/a").status().code(), StatusCode::kNotFound);
}

TEST(ObjectStoreTest, CompareAndSwapAndNoOps) {
  ObjectStore store({});
  ASSERT_TRUE(store.Create("pods", "ns/a", Pod("a")).ok());
  EXPECT_EQ(store.Create("pods", "ns/a", Pod("a")).status().code(),
            StatusCode::kAlreadyExists);
  EXPECT_EQ(store.Replace("pods", "ns/a", Pod("a", "x"), 7).status().code(),
            StatusCode::kAborted);
  EXPECT_EQ(store.Replace("pods", "ns/b", Pod("b"), 1).status().code(),
            StatusCode::kNotFound);
  // Writing the same content again changes nothing, not even the RV.
  auto same = store.Replace("pods", "ns/a", Pod("a"), 1);
  ASSERT_TRUE(same.ok());
  EXPECT_EQ((*same)->rv, 1);
  EXPECT_EQ(store.CurrentRv(), 1);
  EXPECT_EQ(store.Delete("pods", "ns/a", 9).status().code(),
            StatusCode::kAborted);
}

TEST(ObjectStoreTest, ListAtAnOlderVersionRewindsHistory) {
  ObjectStore store({});
  ASSERT_TRUE(store.Create("pods", "ns/b", Pod("b")).ok());           // 1
  ASSERT_TRUE(store.Create("pods", "ns/a", Pod("a")).ok());           // 2
  ASSERT_TRUE(store.Replace("pods", "ns/a", Pod("a", "z"), 2).ok());  // 3
  ASSERT_TRUE(store.Delete("pods", "ns/b", 0).ok());                  // 4
  ASSERT_TRUE(store.Create("pods", "ns/c", Pod("c")).ok());           // 5
  auto now = store.List("pods", 0);
  ASSERT_TRUE(now.ok());
  EXPECT_EQ(now->rv, 5);
  ASSERT_EQ(now->items.size(), 2u);
  EXPECT_EQ(now->items[0].first, "ns/a");  // Sorted by key.
  auto at2 = store.List("pods", 2);
  ASSERT_TRUE(at2.ok());
  EXPECT_EQ(at2->rv, 2);
  ASSERT_EQ(at2->items.size(), 2u);
  EXPECT_EQ(at2->items[0].first, "ns/a");
  EXPECT_EQ(at2->items[0].second->rv, 2);  // Before the relabel.
  EXPECT_EQ(at2->items[1].first, "ns/b");  // Before the delete.
}

// 20,000 pods paged 500 at a time while writes go on: each page comes from
// the snapshot the first page was taken at (every key once, in order, none
// of the later writes), remainingItemCount counts down to the end, and a
// filtered list returns exactly the matching objects.
TEST(ObjectStoreTest, PagesAConsistentSnapshotOfALargeCollection) {
  constexpr int kPods = 20000;
  constexpr int64_t kLimit = 500;
  ObjectStore store({.history = 100000});
  auto key_of = [](int i) {
    char name[16];
    std::snprintf(name, sizeof(name), "p%05d", i);
    return std::string(name);
  };
  for (int i = 0; i < kPods; ++i) {
    ASSERT_TRUE(store
                    .Create("pods", "ns/" + key_of(i),
                            Pod(key_of(i), i % 4 == 0 ? "gcu" : "plain"))
                    .ok());
  }
  ObjectStore::PageSpec spec;
  spec.resource = "pods";
  spec.limit = kLimit;
  spec.count_remaining = true;
  spec.scope = "ns";
  int64_t snapshot_rv = 0;
  std::vector<std::string> keys;
  int pages = 0;
  while (true) {
    auto page = store.ListPage(spec);
    ASSERT_TRUE(page.ok()) << page.status().ToString();
    ++pages;
    if (snapshot_rv == 0) snapshot_rv = page->rv;
    EXPECT_EQ(page->rv, snapshot_rv);
    for (const auto& [key, object] : page->items) {
      keys.push_back(key);
      EXPECT_LE(object->rv, snapshot_rv) << key;
    }
    if (!page->more) {
      EXPECT_EQ(page->remaining, 0);
      break;
    }
    EXPECT_EQ(page->remaining, kPods - static_cast<int64_t>(keys.size()));
    // Writes between pages: a change, a delete, a create, all after the
    // snapshot.
    const int i = static_cast<int>(keys.size());
    ASSERT_TRUE(store
                    .Replace("pods", "ns/" + key_of(i + 1),
                             Pod(key_of(i + 1), "changed"), i + 2)
                    .ok());
    ASSERT_TRUE(store.Delete("pods", "ns/" + key_of(i + 2), 0).ok());
    ASSERT_TRUE(
        store.Create("pods", "ns/" + key_of(i) + "x", Pod(key_of(i))).ok());
    spec.at_rv = page->rv;
    spec.start = page->next_start;
  }
  EXPECT_EQ(pages, kPods / kLimit);
  ASSERT_EQ(keys.size(), static_cast<size_t>(kPods));
  for (int i = 0; i < kPods; ++i) ASSERT_EQ(keys[i], "ns/" + key_of(i));

  // Now (at_rv 0), filtered: every fourth pod, minus the deleted ones.
  ObjectStore::PageSpec gcu;
  gcu.resource = "pods";
  gcu.limit = kLimit;
  gcu.matches = [](const Json& pod) {
    return pod["metadata"]["labels"]["app"] == "gcu";
  };
  size_t matched = 0;
  while (true) {
    auto page = store.ListPage(gcu);
    ASSERT_TRUE(page.ok());
    EXPECT_EQ(page->remaining, -1);  // Not counted.
    for (const auto& [key, object] : page->items) {
      EXPECT_EQ(object->object["metadata"]["labels"]["app"], "gcu") << key;
      ++matched;
    }
    if (!page->more) break;
    gcu.start = page->next_start;
  }
  auto all = store.List("pods", 0);
  ASSERT_TRUE(all.ok());
  size_t expected = 0;
  for (const auto& [key, object] : all->items) {
    if (object->object["metadata"]["labels"]["app"] == "gcu") ++expected;
  }
  EXPECT_GT(expected, 4000u);
  EXPECT_EQ(matched, expected);
}

TEST(ObjectStoreTest, HistoryWindowBoundsResumption) {
  ObjectStore store({.history = 3});
  for (int i = 0; i < 6; ++i) {
    ASSERT_TRUE(
        store.Create("pods", "ns/p" + std::to_string(i), Pod("p")).ok());
  }
  // Events 4, 5, 6 remain; resuming after 3 is the oldest possible.
  EXPECT_EQ(store.OldestResumableRv(), 3);
  auto old = store.Watch(PodsWatch(ObjectStore::WatchSpec::Start::kAfter, 2));
  ASSERT_FALSE(old.ok());
  EXPECT_EQ(old.status().code(), StatusCode::kOutOfRange);
  EXPECT_EQ(old.status().message(), "too old resource version: 2 (3)");
  EXPECT_EQ(store.List("pods", 2).status().code(), StatusCode::kOutOfRange);
  auto ok = store.Watch(PodsWatch(ObjectStore::WatchSpec::Start::kAfter, 3));
  ASSERT_TRUE(ok.ok());
  std::vector<std::string> lines = Drain(**ok);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(Event(lines[0])["object"]["metadata"]["resourceVersion"], "4");
}

TEST(ObjectStoreTest, WatchFromStateThenLiveEvents) {
  ObjectStore store({});
  ASSERT_TRUE(store.Create("pods", "ns/a", Pod("a")).ok());
  auto w = store.Watch(PodsWatch(ObjectStore::WatchSpec::Start::kInitialState));
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE(store.Replace("pods", "ns/a", Pod("a", "b"), 1).ok());
  ASSERT_TRUE(store.Delete("pods", "ns/a", 0).ok());
  std::vector<std::string> lines = Drain(**w);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(Event(lines[0])["type"], "ADDED");
  EXPECT_EQ(Event(lines[1])["type"], "MODIFIED");
  EXPECT_EQ(Event(lines[2])["type"], "DELETED");
  EXPECT_EQ(Event(lines[2])["object"]["metadata"]["resourceVersion"], "3");
  EXPECT_EQ(lines[0].back(), '\n');
  store.Unwatch(w->get());
  EXPECT_EQ(store.WatchCount(), 0u);
}

TEST(ObjectStoreTest, SelectorTransitionsBecomeAddedAndDeleted) {
  ObjectStore store({});
  auto spec = PodsWatch(ObjectStore::WatchSpec::Start::kNow);
  spec.matches = [](const Json& o) {
    const Json* l = MetaLabels(o);
    return l != nullptr && l->value("app", "") == "a";
  };
  auto w = store.Watch(spec);
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE(store.Create("pods", "ns/p", Pod("p", "x")).ok());      // 1: no
  ASSERT_TRUE(store.Replace("pods", "ns/p", Pod("p", "a"), 1).ok());  // 2
  ASSERT_TRUE(store.Replace("pods", "ns/p", Pod("p", "b"), 2).ok());  // 3
  std::vector<std::string> lines = Drain(**w);
  ASSERT_EQ(lines.size(), 2u);
  Json added = Event(lines[0]);
  EXPECT_EQ(added["type"], "ADDED");
  Json left = Event(lines[1]);
  EXPECT_EQ(left["type"], "DELETED");
  // The last state that matched, at the event's RV.
  EXPECT_EQ(left["object"]["metadata"]["labels"]["app"], "a");
  EXPECT_EQ(left["object"]["metadata"]["resourceVersion"], "3");
}

TEST(ObjectStoreTest, BookmarksNeverOvertakeEvents) {
  ObjectStore store({});
  auto w = store.Watch(PodsWatch(ObjectStore::WatchSpec::Start::kNow));
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE(store.Create("pods", "ns/a", Pod("a")).ok());
  store.OfferBookmark(w->get());  // Queue not empty: no bookmark.
  std::vector<std::string> lines = Drain(**w);
  ASSERT_EQ(lines.size(), 1u);
  store.OfferBookmark(w->get());
  lines = Drain(**w);
  ASSERT_EQ(lines.size(), 1u);
  Json bookmark = Event(lines[0]);
  EXPECT_EQ(bookmark["type"], "BOOKMARK");
  EXPECT_EQ(bookmark["object"]["kind"], "Pod");
  EXPECT_EQ(bookmark["object"]["metadata"]["resourceVersion"], "1");
}

TEST(ObjectStoreTest, SlowStreamIsClosedWhenItsBacklogOverflows) {
  ObjectStore store({.stream_capacity = 2});
  auto w = store.Watch(PodsWatch(ObjectStore::WatchSpec::Start::kNow));
  ASSERT_TRUE(w.ok());
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(
        store.Create("pods", "ns/p" + std::to_string(i), Pod("p")).ok());
  }
  EXPECT_TRUE((*w)->closed());
  EXPECT_EQ(Drain(**w).size(), 2u);  // Queued lines still arrive.
  store.CloseAllWatches();
  EXPECT_FALSE(
      store.Watch(PodsWatch(ObjectStore::WatchSpec::Start::kNow)).ok());
}

}  // namespace
}  // namespace gcushare::apiserver
