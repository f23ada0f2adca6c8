#include "dra-driver/slice_publisher.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "base/testing/fake_clock.h"
#include "kube/api_status.h"
#include "kube/testing/fake_kube_client.h"
#include "metrics/registry.h"
#include "testing/eventually.h"

namespace gcushare::dra {
namespace {

using nlohmann::json;

const kube::Resource kSlices = kube::Resource::ResourceSlices();

efml::Inventory Cards(uint32_t count) {
  efml::Inventory inventory;
  for (uint32_t i = 0; i < count; ++i) {
    efml::Card card;
    card.index = i;
    card.uuid = "GCU-" + std::to_string(i);
    card.memory_mib = 16384;
    card.device.path = efml::DefaultDevicePath(i);
    inventory.cards.push_back(card);
  }
  return inventory;
}

Status ApiError(int code, const std::string& reason) {
  return kube::StatusFromApiStatus({{"kind", "Status"},
                                    {"reason", reason},
                                    {"message", reason},
                                    {"code", code}},
                                   code);
}

// A kube-apiserver whose feature gates are off: it stores slices without
// the gated fields, as the real one drops them (and answers with the
// stored object).
class GateOffClient : public kube::FakeKubeClient {
 public:
  bool consumable_capacity = true;
  bool taints = true;

  StatusOr<json> Create(const kube::Resource& resource, std::string_view ns,
                        const json& object) override {
    return FakeKubeClient::Create(resource, ns, Strip(object));
  }
  StatusOr<json> Update(const kube::Resource& resource, std::string_view ns,
                        const json& object) override {
    return FakeKubeClient::Update(resource, ns, Strip(object));
  }

 private:
  json Strip(json object) const {
    if (!object.contains("spec") || !object["spec"].contains("devices")) {
      return object;
    }
    for (json& device : object["spec"]["devices"]) {
      if (!consumable_capacity) {
        device.erase("allowMultipleAllocations");
        for (auto& [name, capacity] : device["capacity"].items()) {
          capacity.erase("requestPolicy");
        }
      }
      if (!taints) device.erase("taints");
    }
    return object;
  }
};

class SlicePublisherTest : public ::testing::Test {
 protected:
  SlicePublisherOptions Options(bool taints = false) {
    SlicePublisherOptions options;
    options.slices.node_name = "n1";
    options.slices.node_uid = "node-uid-1";
    options.slices.driver_version = "1.0.0";
    options.slices.card_model = "S60";
    options.slices.taint_unhealthy = taints;
    options.clock = &clock_;
    options.metrics = &registry_;
    options.backoff = {std::chrono::milliseconds(100), std::chrono::seconds(1),
                       2.0, 0};
    options.clock_check = std::chrono::milliseconds(5);
    return options;
  }

  std::vector<json> Stored() {
    kube::ListOptions options;
    options.field_selector = "spec.nodeName=n1,spec.driver=gcu.enflame.com";
    // Empty while an injected failure answers the test's own read.
    StatusOr<kube::ObjectList> list = client_.List(kSlices, "", options);
    return list.ok() ? list->items : std::vector<json>{};
  }

  // The first stored slice, or an empty object.
  json First() {
    std::vector<json> stored = Stored();
    return stored.empty() ? json::object() : stored[0];
  }

  size_t Count(const std::string& prefix) {
    const std::vector<std::string> actions = client_.actions();
    return std::count_if(actions.begin(), actions.end(),
                         [&](const std::string& action) {
                           return action.rfind(prefix, 0) == 0;
                         });
  }

  double Gauge(std::string_view state) {
    const std::string rendered = registry_.Render();
    const std::string line = "gcushare_dra_consumable_capacity{state=\"" +
                             std::string(state) + "\"} ";
    const size_t at = rendered.find(line);
    if (at == std::string::npos) return -1;
    return std::stod(rendered.substr(at + line.size()));
  }

  base::FakeClock clock_;
  metrics::Registry registry_;
  GateOffClient client_;
};

TEST_F(SlicePublisherTest, CreatesTheNodesSlices) {
  SlicePublisher publisher(&client_, Cards(200), Options());
  ASSERT_TRUE(publisher.SyncOnce().ok());
  const std::vector<json> stored = Stored();
  ASSERT_EQ(stored.size(), 2u);
  for (const json& slice : stored) {
    EXPECT_EQ(slice["spec"]["pool"]["generation"], 1);
    EXPECT_EQ(slice["spec"]["pool"]["resourceSliceCount"], 2);
    EXPECT_EQ(slice["metadata"]["ownerReferences"][0]["uid"], "node-uid-1");
    EXPECT_EQ(slice["metadata"]["name"].get<std::string>().rfind(
                  "n1-gcu.enflame.com-", 0),
              0u);
  }
  EXPECT_EQ(publisher.generation(), 1);
  EXPECT_EQ(Gauge(kConsumablePublished), 1);
  EXPECT_EQ(Gauge(kConsumableDropped), 0);
  // In step: a second sync writes nothing.
  ASSERT_TRUE(publisher.SyncOnce().ok());
  EXPECT_EQ(Count("create resourceslices"), 2u);
  EXPECT_EQ(Count("update resourceslices"), 0u);
}

TEST_F(SlicePublisherTest, ReadsTheNodeUidWhenNotGiven) {
  const json node =
      client_.Seed(kube::Resource::Nodes(), {{"metadata", {{"name", "n1"}}}})
          .value();
  SlicePublisherOptions options = Options();
  options.slices.node_uid = "";
  SlicePublisher publisher(&client_, Cards(1), options);
  ASSERT_TRUE(publisher.SyncOnce().ok());
  EXPECT_EQ(First()["metadata"]["ownerReferences"][0]["uid"],
            node["metadata"]["uid"]);
  ASSERT_TRUE(publisher.SyncOnce().ok());
  EXPECT_EQ(Count("get nodes"), 1u);  // Read once.
}

TEST_F(SlicePublisherTest, MissingNodeIsAnError) {
  SlicePublisherOptions options = Options();
  options.slices.node_uid = "";
  SlicePublisher publisher(&client_, Cards(1), options);
  const Status status = publisher.SyncOnce();
  EXPECT_EQ(status.http_code(), 404) << status;
  EXPECT_TRUE(Stored().empty());
}

TEST_F(SlicePublisherTest, HealthChangeUpdatesWithGenerationBump) {
  SlicePublisher publisher(&client_, Cards(3), Options());
  ASSERT_TRUE(publisher.SyncOnce().ok());
  const std::string rv = First()["metadata"]["resourceVersion"];
  efml::Inventory sick = Cards(3);
  sick.cards[1].healthy = false;
  publisher.SetInventory(sick);
  ASSERT_TRUE(publisher.SyncOnce().ok());
  const std::vector<json> stored = Stored();
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_NE(stored[0]["metadata"]["resourceVersion"], rv);
  EXPECT_EQ(stored[0]["spec"]["pool"]["generation"], 2);
  const json& devices = stored[0]["spec"]["devices"];
  ASSERT_EQ(devices.size(), 2u);  // gcu-1 left out: no taints.
  EXPECT_EQ(devices[1]["name"], "gcu-2");
  EXPECT_EQ(publisher.generation(), 2);
  // Healthy again: back in, generation 3.
  publisher.SetInventory(Cards(3));
  ASSERT_TRUE(publisher.SyncOnce().ok());
  EXPECT_EQ(First()["spec"]["devices"].size(), 3u);
  EXPECT_EQ(First()["spec"]["pool"]["generation"], 3);
}

TEST_F(SlicePublisherTest, UnhealthyCardTaintedWhenAsked) {
  efml::Inventory sick = Cards(2);
  sick.cards[0].healthy = false;
  SlicePublisher publisher(&client_, sick, Options(/*taints=*/true));
  ASSERT_TRUE(publisher.SyncOnce().ok());
  const json device = First()["spec"]["devices"][0];
  EXPECT_EQ(device["taints"][0]["key"], "gcu.enflame.com/unhealthy");
  EXPECT_FALSE(publisher.dropped().any());
}

TEST_F(SlicePublisherTest, DeletedSliceIsRecreated) {
  SlicePublisher publisher(&client_, Cards(200), Options());
  ASSERT_TRUE(publisher.SyncOnce().ok());
  const json gone = First();
  ASSERT_TRUE(
      client_
          .Delete(kSlices, "", gone["metadata"]["name"].get<std::string>(), {})
          .ok());
  ASSERT_TRUE(publisher.SyncOnce().ok());
  const std::vector<json> stored = Stored();
  ASSERT_EQ(stored.size(), 2u);
  for (const json& slice : stored) {
    EXPECT_EQ(slice["spec"]["pool"]["generation"], 2);
  }
}

TEST_F(SlicePublisherTest, ExtraSliceIsDeleted) {
  SlicePublisher publisher(&client_, Cards(2), Options());
  ASSERT_TRUE(publisher.SyncOnce().ok());
  json extra = First();
  extra["metadata"] = {{"name", "n1-gcu.enflame.com-stale"}};
  extra["spec"]["devices"][0]["name"] = "gcu-9";
  ASSERT_TRUE(client_.Seed(kSlices, extra).ok());
  ASSERT_TRUE(publisher.SyncOnce().ok());
  const std::vector<json> stored = Stored();
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_NE(stored[0]["metadata"]["name"], "n1-gcu.enflame.com-stale");
  EXPECT_EQ(Count("delete resourceslices /n1-gcu.enflame.com-stale"), 1u);
  EXPECT_EQ(publisher.generation(), 1);  // The kept slice was in step.
}

TEST_F(SlicePublisherTest, SlicesOfOtherNodesAreLeftAlone) {
  json other = {
      {"metadata", {{"name", "n2-gcu.enflame.com-x"}}},
      {"spec",
       {{"driver", "gcu.enflame.com"},
        {"nodeName", "n2"},
        {"pool",
         {{"name", "n2"}, {"generation", 4}, {"resourceSliceCount", 1}}},
        {"devices", json::array()}}}};
  ASSERT_TRUE(client_.Seed(kSlices, other).ok());
  SlicePublisher publisher(&client_, Cards(1), Options());
  ASSERT_TRUE(publisher.SyncOnce().ok());
  EXPECT_TRUE(client_.Get(kSlices, "", "n2-gcu.enflame.com-x").ok());
  EXPECT_EQ(publisher.generation(), 1);
}

TEST_F(SlicePublisherTest, ConflictIsRetriedWithAFreshRead) {
  SlicePublisher publisher(&client_, Cards(2), Options());
  ASSERT_TRUE(publisher.SyncOnce().ok());
  client_.FailNext("update", ApiError(409, "Conflict"));
  efml::Inventory changed = Cards(2);
  changed.cards[1].healthy = false;
  publisher.SetInventory(changed);
  ASSERT_TRUE(publisher.SyncOnce().ok());
  EXPECT_EQ(Count("update resourceslices"), 2u);  // The 409, then success.
  EXPECT_EQ(Count("list resourceslices"), 3u);    // One more re-read.
  EXPECT_EQ(First()["spec"]["devices"].size(), 1u);
}

TEST_F(SlicePublisherTest, ConflictsForeverGiveUpWithTheError) {
  SlicePublisherOptions options = Options();
  options.conflict_retries = 1;
  SlicePublisher publisher(&client_, Cards(2), options);
  ASSERT_TRUE(publisher.SyncOnce().ok());
  publisher.SetInventory(Cards(3));
  client_.FailNext("update", ApiError(409, "Conflict"));
  client_.FailNext("update", ApiError(409, "Conflict"));
  const Status status = publisher.SyncOnce();
  EXPECT_EQ(status.http_code(), 409) << status;
  ASSERT_TRUE(publisher.SyncOnce().ok());
  EXPECT_EQ(First()["spec"]["devices"].size(), 3u);
}

TEST_F(SlicePublisherTest, ServerDownLosesNothing) {
  SlicePublisher publisher(&client_, Cards(2), Options());
  client_.FailNext("list", UnavailableError("connection refused"));
  EXPECT_EQ(publisher.SyncOnce().code(), StatusCode::kUnavailable);
  EXPECT_TRUE(Stored().empty());
  ASSERT_TRUE(publisher.SyncOnce().ok());
  EXPECT_EQ(Stored().size(), 1u);
}

TEST_F(SlicePublisherTest, InvalidSliceIsAnError) {
  SlicePublisher publisher(&client_, Cards(2), Options());
  client_.FailNext("create", ApiError(422, "Invalid"));
  const Status status = publisher.SyncOnce();
  EXPECT_EQ(status.http_code(), 422) << status;
  EXPECT_NE(status.message().find("create ResourceSlice"), std::string::npos);
}

TEST_F(SlicePublisherTest, DroppedConsumableCapacityRepublishesWholeCards) {
  client_.consumable_capacity = false;
  SlicePublisher publisher(&client_, Cards(2), Options());
  ASSERT_TRUE(publisher.SyncOnce().ok());
  EXPECT_TRUE(publisher.dropped().consumable_capacity);
  EXPECT_EQ(Gauge(kConsumableDropped), 1);
  EXPECT_EQ(Gauge(kConsumablePublished), 0);
  EXPECT_EQ(Count("event Node /n1 ConsumableCapacityDisabled"), 1u);
  const std::vector<json> stored = Stored();
  ASSERT_EQ(stored.size(), 1u);
  for (const json& device : stored[0]["spec"]["devices"]) {
    EXPECT_FALSE(device.contains("allowMultipleAllocations"));
    EXPECT_EQ(device["capacity"], json::parse(R"({"memory": {"value":
        "16Gi"}})"));
  }
  // Said once: later syncs and changes publish whole cards quietly.
  publisher.SetInventory(Cards(3));
  ASSERT_TRUE(publisher.SyncOnce().ok());
  ASSERT_TRUE(publisher.SyncOnce().ok());
  EXPECT_EQ(Count("event Node /n1 ConsumableCapacityDisabled"), 1u);
  EXPECT_EQ(First()["spec"]["devices"].size(), 3u);
  EXPECT_FALSE(
      First()["spec"]["devices"][2].contains("allowMultipleAllocations"));
}

TEST_F(SlicePublisherTest, DroppedOnUpdateToo) {
  SlicePublisher publisher(&client_, Cards(1), Options());
  ASSERT_TRUE(publisher.SyncOnce().ok());
  EXPECT_FALSE(publisher.dropped().any());
  client_.consumable_capacity = false;  // The apiserver restarted, gate off.
  publisher.SetInventory(Cards(2));
  ASSERT_TRUE(publisher.SyncOnce().ok());
  EXPECT_TRUE(publisher.dropped().consumable_capacity);
  EXPECT_EQ(Count("event Node /n1 ConsumableCapacityDisabled"), 1u);
  const json devices = First()["spec"]["devices"];
  ASSERT_EQ(devices.size(), 2u);
  EXPECT_FALSE(devices[0].contains("allowMultipleAllocations"));
}

TEST_F(SlicePublisherTest, DroppedTaintsLeaveUnhealthyCardsOut) {
  client_.taints = false;
  efml::Inventory sick = Cards(3);
  sick.cards[2].healthy = false;
  SlicePublisher publisher(&client_, sick, Options(/*taints=*/true));
  ASSERT_TRUE(publisher.SyncOnce().ok());
  EXPECT_TRUE(publisher.dropped().taints);
  EXPECT_FALSE(publisher.dropped().consumable_capacity);
  EXPECT_EQ(Count("event Node /n1 DeviceTaintsDisabled"), 1u);
  EXPECT_EQ(First()["spec"]["devices"].size(), 2u);
  EXPECT_EQ(Gauge(kConsumablePublished), 1);
}

TEST_F(SlicePublisherTest, DisabledConsumableCapacityIsReported) {
  SlicePublisherOptions options = Options();
  options.slices.consumable_capacity = false;
  SlicePublisher publisher(&client_, Cards(1), options);
  EXPECT_EQ(Gauge(kConsumableDisabled), 1);
  ASSERT_TRUE(publisher.SyncOnce().ok());
  EXPECT_EQ(Count("event"), 0u);
}

TEST_F(SlicePublisherTest, BadOptionsFailEverySyncAndWriteNothing) {
  SlicePublisherOptions options = Options();
  options.slices.driver_version = "v1";
  SlicePublisher publisher(&client_, Cards(1), options);
  EXPECT_EQ(publisher.SyncOnce().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(client_.actions().empty());
}

// The running publisher: the watch brings deleted slices back without any
// clock movement, and the periodic resync repairs other changes.
TEST_F(SlicePublisherTest, RunningPublisherRepublishesDeletedSlices) {
  SlicePublisher publisher(&client_, Cards(2), Options());
  publisher.Start();
  ASSERT_TRUE(testing::Eventually([&] { return Stored().size() == 1; }));
  const std::string first = First()["metadata"]["name"];
  // As the kubelet does at its start.
  ASSERT_TRUE(client_.Delete(kSlices, "", first, {}).ok());
  ASSERT_TRUE(testing::Eventually([&] {
    const std::vector<json> stored = Stored();
    return stored.size() == 1 && stored[0]["metadata"]["name"] != first;
  }));
  publisher.Stop();
}

TEST_F(SlicePublisherTest, RunningPublisherResyncsOnTheClock) {
  SlicePublisher publisher(&client_, Cards(1), Options());
  publisher.Start();
  ASSERT_TRUE(testing::Eventually([&] { return Stored().size() == 1; }));
  json edited = First();
  edited["spec"]["devices"][0]["attributes"]["model"]["string"] = "edited";
  ASSERT_TRUE(client_.Update(kSlices, "", edited).ok());
  // A change other than a deletion waits for the periodic resync; the
  // informer may take a moment to see it, so each look moves the clock on.
  ASSERT_TRUE(testing::Eventually([&] {
    clock_.Advance(std::chrono::seconds(30));
    publisher.Poke();
    return First()["spec"]["devices"][0]["attributes"]["model"]["string"] ==
           "S60";
  }));
  publisher.Stop();
}

TEST_F(SlicePublisherTest, RunningPublisherFollowsHealth) {
  SlicePublisher publisher(&client_, Cards(2), Options());
  publisher.Start();
  ASSERT_TRUE(testing::Eventually([&] { return Stored().size() == 1; }));
  efml::Inventory sick = Cards(2);
  sick.cards[0].healthy = false;
  publisher.SetInventory(sick);
  ASSERT_TRUE(testing::Eventually(
      [&] { return First()["spec"]["devices"].size() == 1; }));
  publisher.Stop();
}

TEST_F(SlicePublisherTest, RunningPublisherRetriesAfterFailure) {
  client_.FailNext("list", UnavailableError("connection refused"));
  client_.FailNext("create", UnavailableError("connection reset"));
  SlicePublisher publisher(&client_, Cards(2), Options());
  publisher.Start();
  ASSERT_TRUE(testing::Eventually([&] { return Stored().size() == 1; }));
  // Backed off on the (fake) clock, not in real time.
  EXPECT_GE(clock_.sleeps().size(), 1u);
  publisher.Stop();
}

TEST_F(SlicePublisherTest, RunningPublisherSurvivesAnExpiredWatch) {
  SlicePublisher publisher(&client_, Cards(2), Options());
  publisher.Start();
  ASSERT_TRUE(testing::Eventually([&] { return Stored().size() == 1; }));
  const std::string first = First()["metadata"]["name"];
  client_.ExpireHistory();  // The watch gets 410: the informer relists.
  ASSERT_TRUE(client_.Delete(kSlices, "", first, {}).ok());
  ASSERT_TRUE(testing::Eventually([&] {
    const std::vector<json> stored = Stored();
    return stored.size() == 1 && stored[0]["metadata"]["name"] != first;
  }));
  publisher.Stop();
}

TEST_F(SlicePublisherTest, StopIsPromptAndIdempotent) {
  SlicePublisher publisher(&client_, Cards(1), Options());
  publisher.Start();
  publisher.Stop();
  publisher.Stop();
}

}  // namespace
}  // namespace gcushare::dra
