#include "kube/testing/fake_kube_client.h"

#include <gtest/gtest.h>

#include <future>
#include <string>
#include <vector>

#include "base/testing/fake_clock.h"
#include "kube/informer.h"
#include "kube/json_fields.h"
#include "kube/selector.h"
#include "kube/testing/api_objects.h"

namespace gcushare::kube {
namespace {

using ::gcushare::kube::testing::Pod;

TEST(FakeKubeClientTest, CreateGetUpdateDelete) {
  FakeKubeClient client;
  StatusOr<nlohmann::json> created =
      client.Create(Resource::Pods(), "ns", Pod("", "p1", ""));
  ASSERT_TRUE(created.ok()) << created.status();
  EXPECT_EQ(NamespaceOf(*created), "ns");
  EXPECT_FALSE(ResourceVersionOf(*created).empty());
  EXPECT_FALSE(StringAt(*created, {"metadata", "uid"}).empty());

  Status again =
      client.Create(Resource::Pods(), "ns", Pod("", "p1", "")).status();
  EXPECT_EQ(again.code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(again.http_code(), 409);
  EXPECT_EQ(again.message(), "AlreadyExists: pods \"p1\" already exists");

  nlohmann::json stale = *created;
  stale["metadata"]["resourceVersion"] = "1";
  EXPECT_EQ(client.Update(Resource::Pods(), "ns", stale).status().http_code(),
            409);
  nlohmann::json fresh = *created;
  fresh["status"]["phase"] = "Running";
  StatusOr<nlohmann::json> updated =
      client.Update(Resource::Pods(), "ns", fresh);
  ASSERT_TRUE(updated.ok()) << updated.status();
  EXPECT_NE(ResourceVersionOf(*updated), ResourceVersionOf(*created));

  EXPECT_TRUE(client.Delete(Resource::Pods(), "ns", "p1", {}).ok());
  Status gone = client.Get(Resource::Pods(), "ns", "p1").status();
  EXPECT_EQ(gone.code(), StatusCode::kNotFound);
  EXPECT_EQ(gone.message(), "NotFound: pods \"p1\" not found");
  EXPECT_EQ(client.actions(),
            (std::vector<std::string>{"create pods ns/p1", "create pods ns/p1",
                                      "update pods ns/p1", "update pods ns/p1",
                                      "delete pods ns/p1", "get pods ns/p1"}));
}

TEST(FakeKubeClientTest, UpdateStatusChangesOnlyTheStatus) {
  FakeKubeClient client;
  nlohmann::json claim = {{"metadata", {{"name", "c"}, {"namespace", "ns"}}},
                          {"spec", {{"devices", nlohmann::json::object()}}}};
  StatusOr<nlohmann::json> created =
      client.Create(Resource::ResourceClaims(), "ns", claim);
  ASSERT_TRUE(created.ok()) << created.status();
  nlohmann::json update = *created;
  update["spec"] = "ignored";
  update["status"] = {{"reservedFor", {{{"name", "p"}}}}};
  StatusOr<nlohmann::json> updated =
      client.UpdateStatus(Resource::ResourceClaims(), "ns", update);
  ASSERT_TRUE(updated.ok()) << updated.status();
  EXPECT_EQ((*updated)["spec"], claim["spec"]);
  EXPECT_EQ((*updated)["status"], update["status"]);
  EXPECT_NE(ResourceVersionOf(*updated), ResourceVersionOf(*created));
  // The old resourceVersion is stale now.
  EXPECT_EQ(client.UpdateStatus(Resource::ResourceClaims(), "ns", update)
                .status()
                .http_code(),
            409);
}

TEST(FakeKubeClientTest, ListFiltersBySelectors) {
  FakeKubeClient client;
  nlohmann::json a = Pod("ns", "a", "", "n1");
  a["metadata"]["labels"] = {{"app", "x"}};
  ASSERT_TRUE(client.Seed(Resource::Pods(), a).ok());
  ASSERT_TRUE(client.Seed(Resource::Pods(), Pod("ns", "b", "", "n2")).ok());
  ASSERT_TRUE(client.Seed(Resource::Pods(), Pod("other", "c", "")).ok());

  ListOptions on_n1;
  on_n1.field_selector = "spec.nodeName=n1";
  EXPECT_EQ(client.List(Resource::Pods(), "", on_n1)->items.size(), 1u);
  ListOptions unscheduled;
  unscheduled.field_selector = "spec.nodeName=";
  ASSERT_EQ(client.List(Resource::Pods(), "", unscheduled)->items.size(), 1u);
  ListOptions labelled;
  labelled.label_selector = "app=x";
  EXPECT_EQ(client.List(Resource::Pods(), "", labelled)->items.size(), 1u);
  labelled.label_selector = "!app";
  EXPECT_EQ(client.List(Resource::Pods(), "", labelled)->items.size(), 2u);
  EXPECT_EQ(client.List(Resource::Pods(), "ns", {})->items.size(), 2u);
  labelled.label_selector = "app in (x)";
  EXPECT_EQ(client.List(Resource::Pods(), "", labelled).status().code(),
            StatusCode::kInvalidArgument);
}

TEST(FakeKubeClientTest, PatchesAndBinding) {
  FakeKubeClient client;
  ASSERT_TRUE(client.Seed(Resource::Pods(), Pod("ns", "p1", "")).ok());
  StatusOr<nlohmann::json> merged =
      client.Patch(Resource::Pods(), "ns", "p1", PatchType::kMerge,
                   {{"metadata", {{"annotations", {{"k", "v"}}}}}}, "");
  ASSERT_TRUE(merged.ok()) << merged.status();
  EXPECT_EQ(StringAt(*merged, {"metadata", "annotations", "k"}), "v");
  StatusOr<nlohmann::json> json_patched = client.Patch(
      Resource::Pods(), "ns", "p1", PatchType::kJsonPatch,
      nlohmann::json::parse(
          R"([{"op":"replace","path":"/status/phase","value":"Running"}])"),
      "status");
  ASSERT_TRUE(json_patched.ok()) << json_patched.status();
  EXPECT_EQ(StringAt(*json_patched, {"status", "phase"}), "Running");
  EXPECT_EQ(client
                .Patch(Resource::Pods(), "ns", "p1", PatchType::kMerge,
                       {{"metadata", {{"resourceVersion", "1"}}}}, "")
                .status()
                .http_code(),
            409);

  ASSERT_TRUE(client.CreateBinding("ns", "p1", "", "n1", {{"a", "b"}}).ok());
  nlohmann::json pod = *client.Get(Resource::Pods(), "ns", "p1");
  EXPECT_EQ(StringAt(pod, {"spec", "nodeName"}), "n1");
  EXPECT_EQ(StringAt(pod, {"metadata", "annotations", "a"}), "b");
  Status again = client.CreateBinding("ns", "p1", "", "n2", {});
  EXPECT_EQ(again.http_code(), 409);
  EXPECT_EQ(again.message(),
            "Conflict: pod p1 is already assigned to node \"n1\"");
}

TEST(FakeKubeClientTest, FailNextInjectsOneError) {
  FakeKubeClient client;
  client.FailNext("binding", UnavailableError("injected"));
  ASSERT_TRUE(client.Seed(Resource::Pods(), Pod("ns", "p1", "")).ok());
  EXPECT_EQ(client.CreateBinding("ns", "p1", "", "n1", {}).message(),
            "injected");
  EXPECT_TRUE(client.CreateBinding("ns", "p1", "", "n1", {}).ok());
}

TEST(FakeKubeClientTest, EventsAreStored) {
  FakeKubeClient client;
  ASSERT_TRUE(client
                  .CreateEvent("", {"Node", "", "n1", "", "v1"}, "Warning",
                               "Broken", "card 1", "gcushare-device-plugin")
                  .ok());
  StatusOr<ObjectList> events = client.List(Resource::Events(), "default", {});
  ASSERT_EQ(events->items.size(), 1u);
  EXPECT_EQ(events->items[0]["reason"], "Broken");
}

class Recorder : public InformerHandler {
 public:
  void OnAdd(const nlohmann::json& o) override { Log("add " + NameOf(o)); }
  void OnUpdate(const nlohmann::json&, const nlohmann::json& o) override {
    Log("update " + NameOf(o));
  }
  void OnDelete(const nlohmann::json& o) override {
    Log("delete " + NameOf(o));
  }
  bool WaitFor(size_t n) {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_for(lock, std::chrono::seconds(30),
                        [&] { return log_.size() >= n; });
  }
  std::vector<std::string> log() {
    std::lock_guard<std::mutex> lock(mu_);
    return log_;
  }

 private:
  void Log(std::string line) {
    std::lock_guard<std::mutex> lock(mu_);
    log_.push_back(std::move(line));
    cv_.notify_all();
  }
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::string> log_;
};

TEST(FakeKubeClientTest, DrivesAnInformerThroughExpiryAndClose) {
  FakeKubeClient client;
  ASSERT_TRUE(client.Seed(Resource::Pods(), Pod("ns", "p1", "")).ok());
  Recorder recorder;
  base::FakeClock clock;  // Backoff sleeps, if any, are not real.
  InformerOptions options;
  options.clock = &clock;
  Informer informer(&client, Resource::Pods(), "ns", &recorder, options);
  informer.Start();
  ASSERT_TRUE(informer.WaitForSync(std::chrono::seconds(30)));
  ASSERT_TRUE(client.Seed(Resource::Pods(), Pod("ns", "p2", "")).ok());
  ASSERT_TRUE(recorder.WaitFor(2));
  client.CloseWatches();  // Re-watch from the last RV.
  ASSERT_TRUE(client.Delete(Resource::Pods(), "ns", "p1", {}).ok());
  ASSERT_TRUE(recorder.WaitFor(3));
  client.ExpireHistory();  // 410, relist.
  ASSERT_TRUE(client.Seed(Resource::Pods(), Pod("ns", "p3", "")).ok());
  ASSERT_TRUE(recorder.WaitFor(4));
  informer.Stop();
  EXPECT_EQ(recorder.log(), (std::vector<std::string>{"add p1", "add p2",
                                                      "delete p1", "add p3"}));
  EXPECT_EQ(informer.size(), 2u);
}

TEST(FakeKubeClientTest, WatchFromAnOldVersionReplaysAndExpiredIs410) {
  FakeKubeClient client;
  const std::string start = client.resource_version();
  ASSERT_TRUE(client.Seed(Resource::Pods(), Pod("ns", "p1", "")).ok());
  base::Cancellation cancel;
  WatchOptions options;
  options.resource_version = start;
  options.cancel = &cancel;
  std::vector<std::string> seen;
  Status status = client.Watch(Resource::Pods(), "ns", options,
                               [&](const WatchEvent& event) {
                                 seen.push_back(NameOf(event.object));
                                 cancel.Cancel();
                               });
  EXPECT_EQ(status.code(), StatusCode::kCancelled);
  EXPECT_EQ(seen, std::vector<std::string>{"p1"});

  client.ExpireHistory();
  WatchOptions old;
  old.resource_version = start;
  Status expired =
      client.Watch(Resource::Pods(), "ns", old, [](const WatchEvent&) {});
  EXPECT_EQ(expired.http_code(), 410);
}

TEST(SelectorTest, TermsAndErrors) {
  const nlohmann::json pod = {
      {"metadata", {{"labels", {{"app", "x"}, {"tier", "fe"}}}}},
      {"spec", {{"nodeName", "n1"}, {"hostNetwork", true}}}};
  EXPECT_TRUE(Selector::ParseLabels("app=x,tier!=be")->Matches(pod));
  EXPECT_FALSE(Selector::ParseLabels("app==x,tier!=fe")->Matches(pod));
  EXPECT_TRUE(Selector::ParseLabels("app,!missing")->Matches(pod));
  EXPECT_TRUE(Selector::ParseLabels("")->Matches(pod));
  EXPECT_TRUE(Selector::ParseFields("spec.hostNetwork=true")->Matches(pod));
  EXPECT_FALSE(Selector::ParseFields("spec.nodeName!=n1")->Matches(pod));
  EXPECT_FALSE(Selector::ParseFields("spec.nodeName").ok());
  EXPECT_FALSE(Selector::ParseLabels("=x").ok());
}

}  // namespace
}  // namespace gcushare::kube
