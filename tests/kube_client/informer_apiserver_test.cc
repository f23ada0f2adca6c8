// The Informer and CurlKubeClient against the stand-in kube-apiserver binary
// over real HTTP: watch lines split across tiny chunks, a relist after the
// watch's resourceVersion expired (410), and the API server crashing and
// coming back on the same port mid-watch.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kube/curl_kube_client.h"
#include "kube/informer.h"
#include "kube/json_fields.h"
#include "kube/list_form.h"
#include "kube/testing/recording_handler.h"
#include "testing/files.h"
#include "tests/kube_client/gated_clock.h"
#include "tests/kube_client/stand_in_writer.h"
#include "tests/kube_client/test_clients.h"
#include "tests/peers/apiserver/testing/apiserver_process.h"
#include "tests/peers/apiserver/testing/test_server.h"

namespace gcushare::kube_client_test {
namespace {

using ::gcushare::apiserver::testing::ApiserverProcess;
using ::gcushare::apiserver::testing::WatchReader;
using ::gcushare::kube::Informer;
using ::gcushare::kube::NameOf;
using ::gcushare::kube::Resource;
using ::gcushare::kube::ResourceVersionOf;
using ::gcushare::kube::testing::RecordingHandler;

constexpr auto kSyncTimeout = std::chrono::seconds(30);

// name -> resourceVersion of the stand-in's pods in `ns`.
std::map<std::string, std::string> ServerPods(StandInWriter& writer,
                                              const std::string& ns) {
  std::map<std::string, std::string> pods;
  StatusOr<nlohmann::json> list = writer.ListPods(ns);
  EXPECT_TRUE(list.ok()) << list.status();
  if (!list.ok()) return pods;
  for (const nlohmann::json& item : (*list)["items"]) {
    pods[NameOf(item)] = ResourceVersionOf(item);
  }
  return pods;
}

// name -> resourceVersion of the informer's store.
std::map<std::string, std::string> StoredPods(const Informer& informer) {
  std::map<std::string, std::string> pods;
  for (const Informer::ObjectPtr& object : informer.Snapshot()) {
    pods[NameOf(*object)] = ResourceVersionOf(*object);
  }
  return pods;
}

std::string Rv(const StatusOr<nlohmann::json>& object) {
  return object.ok() ? ResourceVersionOf(*object) : "<error>";
}

// --- 1. Watch lines split across arbitrary chunk boundaries. ---------------

class SplitWatchTest : public ::testing::TestWithParam<int> {};

TEST_P(SplitWatchTest, InformerSeesEverySplitEventIntact) {
  const int chunk_bytes = GetParam();
  ApiserverProcess apiserver(
      {"--watch-chunk-bytes=" + std::to_string(chunk_bytes),
       "--bookmark-interval=50"});
  ASSERT_TRUE(apiserver.Start().ok()) << apiserver.output();
  StandInWriter writer(apiserver.port());
  // Multi-byte UTF-8 and JSON escapes, so that splits fall inside them.
  const nlohmann::json tricky = {
      {"enflame.com/note",
       "d\u00e9j\u00e0 vu \u6f22\u5b57 \"quoted\" "
       "back\\slash\nnew line \U0001F642 tab\t end"},
      {"enflame.com/gcu-container-devices", R"({"main":[2]})"}};
  auto p1 = writer.CreatePod("chunks", "p1", {{"app", "a"}});
  auto p2 = writer.CreatePod("chunks", "p2");
  ASSERT_TRUE(p1.ok() && p2.ok()) << p1.status() << p2.status();

  auto client = NewClient(apiserver.url());
  ASSERT_TRUE(client.ok()) << client.status();
  RecordingHandler handler;
  Informer informer(client->get(), Resource::Pods(), "chunks", &handler,
                    FastInformerOptions());
  informer.Start();
  ASSERT_TRUE(informer.WaitForSync(kSyncTimeout));

  auto p3 = writer.CreatePod("chunks", "p3", {{"app", "c"}}, tricky);
  auto p1_patched = writer.MergePatchPod(
      "chunks", "p1",
      {{"metadata", {{"labels", {{"x", "y"}}}, {"annotations", tricky}}}});
  auto p2_gone = writer.DeletePod("chunks", "p2");
  ASSERT_TRUE(p3.ok() && p1_patched.ok() && p2_gone.ok());

  ASSERT_TRUE(handler.WaitForLog(5)) << ::testing::PrintToString(handler.log());
  EXPECT_EQ(handler.log(),
            (std::vector<std::string>{
                "add p1@" + Rv(p1), "add p2@" + Rv(p2), "add p3@" + Rv(p3),
                "update p1@" + Rv(p1) + "->" + Rv(p1_patched),
                "delete p2@" + Rv(p2_gone)}));
  // Every event arrived whole: the stored objects are the server's, byte
  // for byte once parsed (the tricky annotations included).
  auto server_p1 = writer.GetPod("chunks", "p1");
  auto server_p3 = writer.GetPod("chunks", "p3");
  ASSERT_TRUE(server_p1.ok() && server_p3.ok());
  ASSERT_NE(informer.Get("chunks/p1"), nullptr);
  ASSERT_NE(informer.Get("chunks/p3"), nullptr);
  EXPECT_EQ(*informer.Get("chunks/p1"), *server_p1);
  EXPECT_EQ(*informer.Get("chunks/p3"), *server_p3);
  EXPECT_EQ((*informer.Get("chunks/p3"))["metadata"]["annotations"], tricky);
  EXPECT_EQ(informer.Get("chunks/p2"), nullptr);
  EXPECT_EQ(informer.lists(), 1u);  // Nothing was lost or relisted.
  informer.Stop();
  client->reset();  // Closes its kept-alive connections.

  {
    // The wire really was cut that fine: the same watch read raw.
    WatchReader raw(apiserver.port(),
                    "/api/v1/namespaces/chunks/pods?watch=true&"
                    "resourceVersion=0");
    ASSERT_TRUE(raw.Next().has_value());
    ASSERT_TRUE(raw.Next().has_value());
    ASSERT_GT(raw.chunk_sizes().size(), 2u);
    for (size_t size : raw.chunk_sizes()) {
      EXPECT_LE(size, static_cast<size_t>(chunk_bytes));
    }
  }
  EXPECT_TRUE(apiserver.Stop().ok()) << apiserver.output();
}

INSTANTIATE_TEST_SUITE_P(ChunkSizes, SplitWatchTest,
                         ::testing::Values(1, 7, 64));

// --- 2. Relist after 410. ---------------------------------------------------

// An informer on `ns` of the stand-in at `url` whose backoff sleeps are held
// by a closed GatedClock: Start() returns once it has listed and its first
// (1 s) watch has ended, so it is not watching until clock.Open().
struct HeldInformer {
  HeldInformer(const std::string& url, const std::string& ns,
               decltype(kube::InformerOptions::transform) transform = nullptr,
               json::FieldTree fields = {},
               kube::ListForm list_form = kube::ListForm::kWatchCache)
      : client(NewClient(url)) {
    clock.Close();
    if (!client.ok()) return;
    kube::InformerOptions options = FastInformerOptions(&clock);
    options.list_form = list_form;
    options.page_size = 2;  // Consistent lists take several pages.
    options.watch_timeout_seconds = 1;
    options.transform = std::move(transform);
    options.fields = std::move(fields);
    informer = std::make_unique<Informer>(client->get(), Resource::Pods(), ns,
                                          &handler, options);
  }
  ::testing::AssertionResult Start() {
    if (!client.ok()) {
      return ::testing::AssertionFailure() << client.status().ToString();
    }
    informer->Start();
    if (!informer->WaitForSync(kSyncTimeout)) {
      return ::testing::AssertionFailure() << "no sync";
    }
    if (!clock.WaitForHeldSleeps(1, kSyncTimeout)) {
      return ::testing::AssertionFailure() << "still watching";
    }
    return ::testing::AssertionSuccess();
  }
  void Stop() {
    informer->Stop();
    client->reset();  // Closes its kept-alive connections.
  }

  StatusOr<std::unique_ptr<kube::CurlKubeClient>> client;
  GatedClock clock;
  RecordingHandler handler;
  std::unique_ptr<Informer> informer;
};

// Both list forms (kube/list_form.h): from the watch cache (the first list
// at resourceVersion 0, the relist at the last one seen, whole) and
// consistent (paged, two pods a page).
class RelistFormTest : public ::testing::TestWithParam<kube::ListForm> {};

TEST_P(RelistFormTest, ExpiredWatchRelistsWithoutGhostsOrLostUpdates) {
  // History of 2 events; no bookmarks, so an idle watch carries nothing and
  // the informer's resourceVersion stays where its list left it.
  ApiserverProcess apiserver({"--history=2", "--bookmark-interval=3600000"});
  ASSERT_TRUE(apiserver.Start().ok()) << apiserver.output();
  StandInWriter writer(apiserver.port());
  auto p1 = writer.CreatePod("relist", "p1");
  auto p2 = writer.CreatePod("relist", "p2");
  auto p3 = writer.CreatePod("relist", "p3");
  ASSERT_TRUE(p1.ok() && p2.ok() && p3.ok());

  HeldInformer held(apiserver.url(), "relist", nullptr, {}, GetParam());
  ASSERT_TRUE(held.Start());
  Informer& informer = *held.informer;
  GatedClock& clock = held.clock;
  RecordingHandler& handler = held.handler;
  const std::string listed_rv = informer.resource_version();
  EXPECT_EQ(listed_rv, Rv(p3));
  // Its first watch timed out with nothing to show; the informer now waits
  // in its backoff, held by the clock: it is not watching.
  EXPECT_EQ(informer.watches(), 1u);

  // Meanwhile: one pod deleted, one updated, one added.
  auto p1_gone = writer.DeletePod("relist", "p1");
  auto p2_updated = writer.MergePatchPod(
      "relist", "p2", {{"metadata", {{"labels", {{"state", "updated"}}}}}});
  auto p4 = writer.CreatePod("relist", "p4");
  ASSERT_TRUE(p1_gone.ok() && p2_updated.ok() && p4.ok());
  // The informer's resourceVersion is now too old to watch from.
  {
    WatchReader expired(apiserver.port(),
                        "/api/v1/namespaces/relist/pods?watch=true&"
                        "resourceVersion=" +
                            listed_rv);
    std::optional<apiserver::Json> event = expired.Next();
    ASSERT_TRUE(event.has_value());
    EXPECT_EQ((*event)["type"], "ERROR");
    EXPECT_EQ((*event)["object"]["code"], 410);
  }

  clock.Open();
  ASSERT_TRUE(handler.WaitForLog(6)) << ::testing::PrintToString(handler.log());
  EXPECT_EQ(handler.log(),
            (std::vector<std::string>{
                "add p1@" + Rv(p1), "add p2@" + Rv(p2), "add p3@" + Rv(p3),
                // The relist, page by page: the update lands, the new pod
                // arrives, then the ghost goes (OnDelete with its last known
                // state).
                "update p2@" + Rv(p2) + "->" + Rv(p2_updated),
                "add p4@" + Rv(p4), "delete p1@" + Rv(p1)}));
  EXPECT_EQ(informer.lists(), 2u);
  EXPECT_EQ(informer.Get("relist/p1"), nullptr);
  ASSERT_NE(informer.Get("relist/p2"), nullptr);
  EXPECT_EQ((*informer.Get("relist/p2"))["metadata"]["labels"]["state"],
            "updated");
  EXPECT_NE(informer.Get("relist/p4"), nullptr);
  EXPECT_EQ(StoredPods(informer), ServerPods(writer, "relist"));
  EXPECT_EQ(handler.cache(), ServerPods(writer, "relist"));

  // And it watches again from the fresh list.
  auto p3_updated = writer.MergePatchPod(
      "relist", "p3", {{"metadata", {{"labels", {{"state", "late"}}}}}});
  ASSERT_TRUE(p3_updated.ok());
  ASSERT_TRUE(handler.WaitForLog(7));
  EXPECT_EQ(handler.log().back(),
            "update p3@" + Rv(p3) + "->" + Rv(p3_updated));
  EXPECT_EQ(informer.lists(), 2u);
  held.Stop();
  EXPECT_TRUE(apiserver.Stop().ok()) << apiserver.output();
}

INSTANTIATE_TEST_SUITE_P(
    Forms, RelistFormTest,
    ::testing::Values(kube::ListForm::kWatchCache,
                      kube::ListForm::kConsistentPaged),
    [](const ::testing::TestParamInfo<kube::ListForm>& info) {
      return info.param == kube::ListForm::kWatchCache ? "WatchCache"
                                                       : "ConsistentPaged";
    });

// A pod deleted and re-created under the same name while the informer was
// not watching: the relist reports the old incarnation deleted and the new
// one added (an update would leave a cache holding the old uid's memory).
TEST(RelistTest, RecreatedUnderTheSameNameIsDeleteThenAdd) {
  ApiserverProcess apiserver({"--history=2", "--bookmark-interval=3600000"});
  ASSERT_TRUE(apiserver.Start().ok()) << apiserver.output();
  StandInWriter writer(apiserver.port());
  auto old_pod = writer.CreatePod("again", "p");
  ASSERT_TRUE(old_pod.ok());
  HeldInformer held(apiserver.url(), "again");
  ASSERT_TRUE(held.Start());  // Listed, and not watching.
  Informer& informer = *held.informer;
  RecordingHandler& handler = held.handler;

  auto gone = writer.DeletePod("again", "p");
  auto new_pod = writer.CreatePod("again", "p");
  auto filler = writer.CreatePod("again", "q");  // Expires the history.
  ASSERT_TRUE(gone.ok() && new_pod.ok() && filler.ok());
  ASSERT_NE((*new_pod)["metadata"]["uid"], (*old_pod)["metadata"]["uid"]);

  held.clock.Open();
  ASSERT_TRUE(handler.WaitForLog(4)) << ::testing::PrintToString(handler.log());
  EXPECT_EQ(handler.log(),
            (std::vector<std::string>{
                "add p@" + Rv(old_pod), "delete p@" + Rv(old_pod),
                "add p@" + Rv(new_pod), "add q@" + Rv(filler)}));
  EXPECT_EQ(informer.lists(), 2u);
  EXPECT_EQ(StoredPods(informer), ServerPods(writer, "again"));
  held.Stop();
  EXPECT_TRUE(apiserver.Stop().ok()) << apiserver.output();
}

// With a transform the store keeps only what it returns, objects it drops
// are neither stored nor reported, and a relist reconciles the kept forms:
// an object that stops being kept is reported deleted (with its kept form),
// one that starts being kept is added, and handlers get the decoded object
// as new state.
TEST(RelistTest, TransformKeepsOnlyTheKeptFormsAcrossARelist) {
  ApiserverProcess apiserver({"--history=2", "--bookmark-interval=3600000"});
  ASSERT_TRUE(apiserver.Start().ok()) << apiserver.output();
  StandInWriter writer(apiserver.port());
  auto a = writer.CreatePod("kept", "a", {{"keep", "yes"}});
  auto b = writer.CreatePod("kept", "b");
  auto c = writer.CreatePod("kept", "c", {{"keep", "yes"}});
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  HeldInformer held(
      apiserver.url(), "kept",
      [](const nlohmann::json& pod) -> std::optional<nlohmann::json> {
        const nlohmann::json& meta = pod["metadata"];
        if (meta.value("labels", nlohmann::json::object()).value("keep", "") !=
            "yes") {
          return std::nullopt;
        }
        return nlohmann::json{{"metadata",
                               {{"name", meta["name"]},
                                {"namespace", meta["namespace"]},
                                {"uid", meta["uid"]},
                                {"resourceVersion", meta["resourceVersion"]}}}};
      });
  ASSERT_TRUE(held.Start());
  Informer& informer = *held.informer;
  RecordingHandler& handler = held.handler;
  EXPECT_EQ(handler.log(),
            (std::vector<std::string>{"add a@" + Rv(a), "add c@" + Rv(c)}));
  ASSERT_NE(informer.Get("kept/a"), nullptr);
  EXPECT_FALSE(informer.Get("kept/a")->contains("spec"));
  EXPECT_EQ(informer.Get("kept/b"), nullptr);

  // While it does not watch: a goes, b starts being kept, c stops.
  auto a_gone = writer.DeletePod("kept", "a");
  auto b_kept = writer.MergePatchPod(
      "kept", "b", {{"metadata", {{"labels", {{"keep", "yes"}}}}}});
  auto c_dropped = writer.MergePatchPod(
      "kept", "c", {{"metadata", {{"labels", {{"keep", "no"}}}}}});
  ASSERT_TRUE(a_gone.ok() && b_kept.ok() && c_dropped.ok());

  held.clock.Open();
  ASSERT_TRUE(handler.WaitForLog(5)) << ::testing::PrintToString(handler.log());
  EXPECT_EQ(handler.log(),
            (std::vector<std::string>{
                "add a@" + Rv(a), "add c@" + Rv(c), "add b@" + Rv(b_kept),
                "delete c@" + Rv(c), "delete a@" + Rv(a)}));
  EXPECT_EQ(informer.lists(), 2u);
  EXPECT_EQ(StoredPods(informer),
            (std::map<std::string, std::string>{{"b", Rv(b_kept)}}));
  // And the cache built on the handler agrees.
  EXPECT_EQ(handler.cache(),
            (std::map<std::string, std::string>{{"b", Rv(b_kept)}}));

  // Watching again: an update reports the kept form as old state.
  auto b_updated = writer.MergePatchPod(
      "kept", "b", {{"metadata", {{"labels", {{"more", "x"}}}}}});
  ASSERT_TRUE(b_updated.ok());
  ASSERT_TRUE(handler.WaitForLog(6));
  EXPECT_EQ(handler.log().back(),
            "update b@" + Rv(b_kept) + "->" + Rv(b_updated));
  held.Stop();
  EXPECT_TRUE(apiserver.Stop().ok()) << apiserver.output();
}

TEST(FieldsTest, ListsAndWatchEventsDecodeOnlyTheNamedFields) {
  ApiserverProcess apiserver({"--history=2", "--bookmark-interval=3600000"});
  ASSERT_TRUE(apiserver.Start().ok()) << apiserver.output();
  StandInWriter writer(apiserver.port());
  auto a = writer.CreatePod("fields", "a", {{"keep", "yes"}, {"x", "1"}});
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE((*a).contains("spec"));
  json::FieldTree fields;
  for (const char* field : {"name", "namespace", "uid", "resourceVersion"}) {
    fields.Add({"metadata", field});
  }
  fields.Add({"metadata", "labels", "keep"});
  // The transform keeps what it is given: the decoded form.
  HeldInformer held(
      apiserver.url(), "fields",
      [](const nlohmann::json& pod) -> std::optional<nlohmann::json> {
        return pod;
      },
      fields);
  ASSERT_TRUE(held.Start());
  Informer& informer = *held.informer;
  const nlohmann::json listed = {{"metadata",
                                  {{"name", "a"},
                                   {"namespace", "fields"},
                                   {"uid", (*a)["metadata"]["uid"]},
                                   {"resourceVersion", Rv(a)},
                                   {"labels", {{"keep", "yes"}}}}}};
  ASSERT_NE(informer.Get("fields/a"), nullptr);
  EXPECT_EQ(*informer.Get("fields/a"), listed);

  // Enough writes while it does not watch that its resourceVersion is gone
  // (--history=2): the watch gets 410 Expired (read whole, whatever the
  // fields) and it relists, again decoding only the fields.
  auto b = writer.CreatePod("fields", "b", {{"keep", "no"}});
  ASSERT_TRUE(b.ok());
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(writer
                    .MergePatchPod("fields", "b",
                                   {{"metadata",
                                     {{"labels", {{"n", std::to_string(i)}}}}}})
                    .ok());
  }
  held.clock.Open();
  ASSERT_TRUE(held.handler.WaitForLog(2))
      << ::testing::PrintToString(held.handler.log());
  EXPECT_EQ(informer.lists(), 2u);
  ASSERT_NE(informer.Get("fields/b"), nullptr);
  EXPECT_FALSE(informer.Get("fields/b")->contains("spec"));
  EXPECT_EQ((*informer.Get("fields/b"))["metadata"]["labels"],
            (nlohmann::json{{"keep", "no"}}));

  // A watch event decodes only the fields too.
  auto c = writer.CreatePod("fields", "c", {{"keep", "c"}, {"y", "2"}});
  ASSERT_TRUE(c.ok());
  ASSERT_TRUE(held.handler.WaitForLog(3));
  ASSERT_NE(informer.Get("fields/c"), nullptr);
  EXPECT_EQ(informer.Get("fields/c")->size(), 1u);  // Only metadata.
  EXPECT_EQ((*informer.Get("fields/c"))["metadata"]["labels"],
            (nlohmann::json{{"keep", "c"}}));
  EXPECT_EQ((*informer.Get("fields/c"))["metadata"]["resourceVersion"], Rv(c));
  held.Stop();
  EXPECT_TRUE(apiserver.Stop().ok()) << apiserver.output();
}

// A paged list tells its size (first page plus remainingItemCount) once,
// before the first item, with pruned items and with whole ones.
TEST(FieldsTest, PagedListTellsItsSizeBeforeTheFirstItem) {
  ApiserverProcess apiserver({"--history=100", "--bookmark-interval=3600000"});
  ASSERT_TRUE(apiserver.Start().ok()) << apiserver.output();
  StandInWriter writer(apiserver.port());
  for (const char* name : {"a", "b", "c", "d", "e"}) {
    ASSERT_TRUE(writer.CreatePod("sized", name).ok());
  }
  auto client = NewClient(apiserver.url());
  ASSERT_TRUE(client.ok()) << client.status();
  json::FieldTree fields;
  fields.Add({"metadata", "name"});
  const json::FieldTree* const trees[] = {&fields, nullptr};
  for (const json::FieldTree* tree : trees) {
    std::vector<std::string> seen;
    kube::ListOptions options;
    options.limit = 2;
    options.fields = tree;
    options.expected_items = [&seen](size_t expected) {
      seen.push_back("size " + std::to_string(expected));
    };
    auto listed = (*client)->ListEach(
        Resource::Pods(), "sized", options,
        [&seen](const nlohmann::json& item) { seen.push_back(NameOf(item)); });
    ASSERT_TRUE(listed.ok()) << listed.status();
    EXPECT_EQ(seen,
              (std::vector<std::string>{"size 5", "a", "b", "c", "d", "e"}));
  }
  EXPECT_TRUE(apiserver.Stop().ok()) << apiserver.output();
}

// --- 3. The API server crashes and restarts mid-watch. ----------------------

TEST(RestartTest, InformerRecoversWhenTheApiServerRestartsOnTheSamePort) {
  const std::string state_file =
      gcushare::testing::MakeTempDir() + "/state.jsonl";
  ApiserverProcess apiserver(
      {"--state-file=" + state_file, "--bookmark-interval=200"});
  ASSERT_TRUE(apiserver.Start().ok()) << apiserver.output();
  const int port = apiserver.port();
  StandInWriter writer(port);
  auto p1 = writer.CreatePod("restart", "p1");
  auto p2 = writer.CreatePod("restart", "p2");
  ASSERT_TRUE(p1.ok() && p2.ok());

  auto client = NewClient(apiserver.url());
  ASSERT_TRUE(client.ok()) << client.status();
  RecordingHandler handler;
  Informer informer(client->get(), Resource::Pods(), "restart", &handler,
                    FastInformerOptions());
  informer.Start();
  ASSERT_TRUE(informer.WaitForSync(kSyncTimeout));
  auto p1_updated = writer.MergePatchPod(
      "restart", "p1", {{"metadata", {{"labels", {{"v", "2"}}}}}});
  ASSERT_TRUE(p1_updated.ok());
  ASSERT_TRUE(handler.WaitForLog(3));  // The watch is live.
  const uint64_t watches_before = informer.watches();

  ASSERT_TRUE(apiserver.Kill().ok()) << apiserver.output();
  ASSERT_TRUE(apiserver.Restart().ok()) << apiserver.output();
  ASSERT_EQ(apiserver.port(), port);
  // The journal kept the objects and their resourceVersions.
  auto p1_after = writer.GetPod("restart", "p1");
  ASSERT_TRUE(p1_after.ok()) << p1_after.status();
  EXPECT_EQ(*p1_after, *p1_updated);

  // Changes after the restart reach the informer.
  auto p1_gone = writer.DeletePod("restart", "p1");
  auto p2_updated = writer.MergePatchPod(
      "restart", "p2", {{"metadata", {{"labels", {{"v", "3"}}}}}});
  auto p3 = writer.CreatePod("restart", "p3");
  ASSERT_TRUE(p1_gone.ok() && p2_updated.ok() && p3.ok());
  ASSERT_TRUE(handler.WaitForLog(6)) << ::testing::PrintToString(handler.log());
  EXPECT_EQ(handler.log(), (std::vector<std::string>{
                               "add p1@" + Rv(p1), "add p2@" + Rv(p2),
                               "update p1@" + Rv(p1) + "->" + Rv(p1_updated),
                               "delete p1@" + Rv(p1_gone),
                               "update p2@" + Rv(p2) + "->" + Rv(p2_updated),
                               "add p3@" + Rv(p3)}));
  EXPECT_EQ(StoredPods(informer), ServerPods(writer, "restart"));
  EXPECT_GT(informer.watches(), watches_before);
  // The restarted server still knew the informer's resourceVersion, so the
  // informer resumed its watch instead of relisting.
  EXPECT_EQ(informer.lists(), 1u);
  informer.Stop();
  client->reset();  // Closes its kept-alive connections.
  EXPECT_TRUE(apiserver.Stop().ok()) << apiserver.output();
}

}  // namespace
}  // namespace gcushare::kube_client_test
