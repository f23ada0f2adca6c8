#include "extender/extender_service.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "base/testing/fake_clock.h"
#include "extender/node_resources.h"
#include "extender/testing/objects.h"
#include "kube/testing/fake_kube_client.h"

namespace gcushare::extender {

using placement::Policy;

namespace {

using testing::MemoryPod;
using testing::SharingNode;

std::string Args(const nlohmann::json& pod,
                 const std::vector<std::string>& names) {
  return nlohmann::json{{"Pod", pod}, {"Nodes", nullptr}, {"NodeNames", names}}
      .dump();
}

std::string BindArgs(const nlohmann::json& pod, const std::string& node) {
  return nlohmann::json{{"PodName", pod["metadata"]["name"]},
                        {"PodNamespace", pod["metadata"]["namespace"]},
                        {"PodUID", pod["metadata"]["uid"]},
                        {"Node", node}}
      .dump();
}

class ExtenderServiceTest : public ::testing::Test {
 protected:
  ExtenderServiceTest()
      : service_(&cache_, &client_, &clock_, Policy::kBinpack, &registry_) {}

  void AddNode(const nlohmann::json& node) {
    ASSERT_TRUE(client_.Seed(kube::Resource::Nodes(), node).ok());
    cache_.UpsertNode(node);
  }
  nlohmann::json AddPod(const nlohmann::json& pod) {
    auto seeded = client_.Seed(kube::Resource::Pods(), pod);
    EXPECT_TRUE(seeded.ok());
    return *seeded;
  }
  nlohmann::json Filter(const nlohmann::json& pod,
                        const std::vector<std::string>& names) {
    HttpReply reply = service_.Filter(Args(pod, names));
    EXPECT_EQ(reply.status, 200) << reply.body;
    return nlohmann::json::parse(reply.body);
  }
  std::string Bind(const nlohmann::json& pod, const std::string& node) {
    HttpReply reply = service_.Bind(BindArgs(pod, node));
    EXPECT_EQ(reply.status, 200) << reply.body;
    return nlohmann::json::parse(reply.body)["Error"].get<std::string>();
  }
  nlohmann::json Annotations(const std::string& name) {
    auto pod = client_.Get(kube::Resource::Pods(), "default", name);
    EXPECT_TRUE(pod.ok());
    return (*pod)["metadata"].value("annotations", nlohmann::json::object());
  }
  // Feeds the fake's current pods to the cache, as the informer would.
  void SyncPods() {
    auto list = client_.List(kube::Resource::Pods(), "", {});
    ASSERT_TRUE(list.ok());
    for (const auto& pod : list->items) (void)cache_.UpsertPod(pod);
  }

  CardCache cache_;
  kube::FakeKubeClient client_;
  base::FakeClock clock_;
  metrics::Registry registry_;
  ExtenderService service_;
};

TEST_F(ExtenderServiceTest, VendorManualScenario) {
  AddNode(SharingNode("n1", 8, 16));
  const std::pair<const char*, uint64_t> pods[] = {
      {"p4", 4}, {"p8", 8}, {"p12", 12}};
  for (const auto& [name, size] : pods) {
    auto pod = AddPod(MemoryPod(name, size));
    auto filtered = Filter(pod, {"n1"});
    ASSERT_EQ(filtered["NodeNames"], nlohmann::json::array({"n1"})) << filtered;
    ASSERT_EQ(Bind(pod, "n1"), "");
  }
  EXPECT_EQ(Annotations("p4")["enflame.com/gcu-device-id"], "0");
  EXPECT_EQ(Annotations("p8")["enflame.com/gcu-device-id"], "0");
  EXPECT_NE(Annotations("p12")["enflame.com/gcu-device-id"], "0");
  EXPECT_EQ(Annotations("p12")["enflame.com/gcu-container-devices"],
            R"({"main":[1]})");
  EXPECT_EQ(Annotations("p12")["enflame.com/gcu-device-assigned"], "false");

  auto big = AddPod(MemoryPod("p20", 20));
  auto filtered = Filter(big, {"n1"});
  EXPECT_EQ(filtered["NodeNames"], nlohmann::json::array());
  EXPECT_NE(
      filtered["FailedAndUnresolvableNodes"]["n1"].get<std::string>().find(
          "more than the largest card"),
      std::string::npos);

  auto inspect = service_.InspectNode("n1");
  ASSERT_TRUE(inspect.has_value());
  const auto& node = (*inspect)["nodes"][0];
  EXPECT_EQ(node["usedGCU"], 24);
  EXPECT_EQ(node["totalGCU"], 128);
  EXPECT_EQ(node["availableGCU"], 104);
  EXPECT_EQ(node["devices"][0]["usedGCU"], 12);
  EXPECT_EQ(node["devices"][0]["pods"].size(), 2u);
  EXPECT_EQ(node["devices"][0]["pods"][0]["namespace"], "default");
  EXPECT_FALSE(service_.InspectNode("nope").has_value());
}

TEST_F(ExtenderServiceTest, FullCardFailsWithTheVendorReason) {
  AddNode(SharingNode("n1", 1, 16));
  auto first = AddPod(MemoryPod("a", 12));
  ASSERT_EQ(Bind(first, "n1"), "");
  auto second = AddPod(MemoryPod("b", 8));
  auto filtered = Filter(second, {"n1", "elsewhere"});
  EXPECT_EQ(filtered["FailedNodes"]["n1"],
            "insufficient GCU Memory in one gcu device");
  EXPECT_NE(filtered["FailedAndUnresolvableNodes"]["elsewhere"]
                .get<std::string>()
                .find("not a GCUShare node"),
            std::string::npos);
  // And bind refuses too, without touching the pod.
  EXPECT_NE(Bind(second, "n1").find("insufficient GCU Memory"),
            std::string::npos);
  EXPECT_FALSE(Annotations("b").contains("enflame.com/gcu-device-id"));
}

TEST_F(ExtenderServiceTest, MixedRequestIsRefusedEverywhere) {
  AddNode(SharingNode("n1", 2, 16));
  auto pod = AddPod(testing::Pod("default", "m", "", {{"main", 4, 1}}));
  auto filtered = Filter(pod, {"n1"});
  EXPECT_NE(
      filtered["FailedAndUnresolvableNodes"]["n1"].get<std::string>().find(
          "both enflame.com/gcu-memory and enflame.com/gcu-count"),
      std::string::npos);
}

TEST_F(ExtenderServiceTest, WholeAndSharedPodsNeverShareACard) {
  AddNode(SharingNode("n1", 2, 16));
  auto shared = AddPod(MemoryPod("s", 1));
  ASSERT_EQ(Bind(shared, "n1"), "");
  auto whole = AddPod(testing::Pod("default", "w", "", {{"main", 0, 1}}));
  ASSERT_EQ(Bind(whole, "n1"), "");
  EXPECT_NE(Annotations("s")["enflame.com/gcu-device-id"],
            Annotations("w")["enflame.com/gcu-device-id"]);
  auto another = AddPod(testing::Pod("default", "w2", "", {{"main", 0, 1}}));
  auto filtered = Filter(another, {"n1"});
  EXPECT_EQ(filtered["NodeNames"], nlohmann::json::array());
  auto more = AddPod(MemoryPod("s2", 1));
  ASSERT_EQ(Bind(more, "n1"), "");
  EXPECT_EQ(Annotations("s2")["enflame.com/gcu-device-id"],
            Annotations("s")["enflame.com/gcu-device-id"]);
}

TEST_F(ExtenderServiceTest, FailedBindingWritesNothingAndFreesTheReservation) {
  AddNode(SharingNode("n1", 1, 16));
  auto pod = AddPod(MemoryPod("a", 4));
  client_.FailNext("binding", UnavailableError("connection refused"));
  std::string error = Bind(pod, "n1");
  EXPECT_NE(error.find("connection refused"), std::string::npos) << error;
  EXPECT_FALSE(Annotations("a").contains("enflame.com/gcu-device-id"));
  EXPECT_EQ(cache_.pod_count(), 0u);
  // Bind writes the pod once, through the Binding: never a separate patch
  // that a failed Binding would leave behind.
  const std::vector<std::string> actions = client_.actions();
  EXPECT_NE(
      std::find(actions.begin(), actions.end(), "binding pods default/a -> n1"),
      actions.end());
  for (const std::string& action : actions) {
    EXPECT_EQ(action.rfind("patch", 0), std::string::npos) << action;
  }
  // The memory is free again.
  ASSERT_EQ(Bind(pod, "n1"), "");
  EXPECT_EQ(Annotations("a")["enflame.com/gcu-device-id"], "0");
  EXPECT_EQ(Annotations("a")["enflame.com/gcu-device-memory-request"], "4");
}

// kube-scheduler retries a bind while the first call still waits on the
// API server. The retry waits for the first call's outcome; the first
// call's failure must not take the reservation the retry then relies on.
TEST_F(ExtenderServiceTest, RetryWhileTheFirstBindIsInFlightKeepsItsMemory) {
  AddNode(SharingNode("n1", 1, 16));
  auto pod = AddPod(MemoryPod("a", 4));
  std::mutex mu;
  std::condition_variable cv;
  int bindings = 0;
  bool release = false;
  client_.SetBindingHook([&]() -> Status {
    std::unique_lock<std::mutex> lock(mu);
    if (++bindings > 1) return OkStatus();
    cv.notify_all();
    cv.wait(lock, [&] { return release; });
    // Answered before it reached etcd: certainly not bound.
    return UnavailableError("connection refused");
  });
  std::string first_error;
  std::thread first([&] { first_error = Bind(pod, "n1"); });
  {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return bindings == 1; });
  }
  std::string retry_error = "not run";
  std::thread retry([&] { retry_error = Bind(pod, "n1"); });
  // The retry is registered on the pod's lock behind the first call.
  while (service_.pod_locks().Users("default/a") < 2) {
    std::this_thread::yield();
  }
  {
    std::lock_guard<std::mutex> lock(mu);
    release = true;
  }
  cv.notify_all();
  first.join();
  retry.join();
  EXPECT_NE(first_error.find("connection refused"), std::string::npos)
      << first_error;
  EXPECT_EQ(retry_error, "");
  EXPECT_EQ(bindings, 2);
  // The pod runs on n1 with its card, and the cache counts it: the next
  // pod cannot take the same memory.
  EXPECT_EQ(Annotations("a")["enflame.com/gcu-device-id"], "0");
  auto held = cache_.Pod(pod["metadata"]["uid"].get<std::string>());
  ASSERT_TRUE(held.has_value());
  EXPECT_EQ(held->units, 4u);
  auto inspect = service_.InspectNode("n1");
  EXPECT_EQ((*inspect)["nodes"][0]["usedGCU"], 4);
}

// A Binding whose answer was lost (the pod reads back bound to the node)
// is success, and the reservation stays.
TEST_F(ExtenderServiceTest, BindingErrorButBoundIsSuccess) {
  AddNode(SharingNode("n1", 1, 16));
  auto pod = AddPod(MemoryPod("a", 4));
  bool answered = false;
  client_.SetBindingHook([&]() -> Status {
    if (answered) return OkStatus();  // The inner, committing call.
    answered = true;
    // Commit, then lose the answer.
    Status committed = client_.CreateBinding(
        "default", "a", pod["metadata"]["uid"].get<std::string>(), "n1",
        {{"enflame.com/gcu-device-id", "0"}});
    EXPECT_TRUE(committed.ok()) << committed.message();
    return UnavailableError("connection reset by peer");
  });
  EXPECT_EQ(Bind(pod, "n1"), "");
  EXPECT_EQ(cache_.pod_count(), 1u);
}

TEST_F(ExtenderServiceTest, BadBodiesAre400AndChangeNothing) {
  AddNode(SharingNode("n1", 1, 16));
  for (const char* body : {"", "{", "[]", "{\"Pod\":", "null"}) {
    EXPECT_EQ(service_.Filter(body).status, 400) << body;
    EXPECT_EQ(service_.Prioritize(body).status, 400) << body;
    EXPECT_EQ(service_.Bind(body).status, 400) << body;
  }
  EXPECT_EQ(cache_.pod_count(), 0u);
  // Seeding is not a call: a bad body makes no API call at all.
  EXPECT_EQ(client_.actions(), std::vector<std::string>());
}

// The candidates are read once (ExtenderArgs::CandidateNames), so what is
// judged is what the reply names, and no Node JSON makes a call throw.
TEST_F(ExtenderServiceTest, CandidatesAreReadLikeTheReply) {
  AddNode(SharingNode("n1", 1, 16));
  AddNode(SharingNode("n2", 1, 16));
  auto pod = AddPod(MemoryPod("a", 4));
  // Both forms sent (kube-scheduler sends one): NodeNames is what the reply
  // answers, so it is what is judged.
  nlohmann::json both = {{"Pod", pod},
                         {"Nodes", {{"items", {SharingNode("n1", 1, 16)}}}},
                         {"NodeNames", {"n2"}}};
  HttpReply reply = service_.Filter(both.dump());
  ASSERT_EQ(reply.status, 200) << reply.body;
  EXPECT_EQ(nlohmann::json::parse(reply.body)["NodeNames"],
            nlohmann::json::array({"n2"}))
      << reply.body;
  // A Node whose name is not a string: no exception, it is simply no
  // candidate we know.
  nlohmann::json odd = {{"Pod", pod},
                        {"Nodes", {{"items", {{{"metadata", {{"name", 7}}}}}}}},
                        {"NodeNames", nullptr}};
  for (auto call : {&ExtenderService::Filter, &ExtenderService::Prioritize}) {
    HttpReply r = (service_.*call)(odd.dump());
    EXPECT_EQ(r.status, 200) << r.body;
  }
  // Keys are matched as kube-scheduler's Go decoder would.
  nlohmann::json capital = {
      {"Pod", pod},
      {"Nodes", {{"items", {{{"Metadata", {{"Name", "n1"}}}}}}}},
      {"NodeNames", nullptr}};
  HttpReply scores = service_.Prioritize(capital.dump());
  ASSERT_EQ(scores.status, 200) << scores.body;
  EXPECT_EQ(nlohmann::json::parse(scores.body)[0]["Host"], "n1") << scores.body;
}

TEST_F(ExtenderServiceTest, ConcurrentBindsNeverOvercommit) {
  AddNode(SharingNode("n1", 2, 16));
  std::vector<nlohmann::json> pods;
  pods.reserve(40);
  for (int i = 0; i < 40; ++i) {
    pods.push_back(AddPod(MemoryPod("p" + std::to_string(i), 3)));
  }
  std::vector<std::string> errors(pods.size());
  std::vector<std::thread> threads;
  for (size_t i = 0; i < pods.size(); ++i) {
    threads.emplace_back([&, i] {
      errors[i] = nlohmann::json::parse(
          service_.Bind(BindArgs(pods[i], "n1")).body)["Error"];
    });
  }
  for (auto& t : threads) t.join();
  int bound = 0;
  for (const std::string& e : errors) bound += e.empty() ? 1 : 0;
  EXPECT_EQ(bound, 10);  // 5 pods of 3 units per 16-unit card.
  SyncPods();
  auto inspect = service_.InspectNode("n1");
  EXPECT_EQ((*inspect)["nodes"][0]["devices"][0]["usedGCU"], 15);
  EXPECT_EQ((*inspect)["nodes"][0]["devices"][1]["usedGCU"], 15);
}

TEST_F(ExtenderServiceTest, PrioritizePrefersTheFullerCard) {
  AddNode(SharingNode("empty", 1, 16));
  AddNode(SharingNode("used", 1, 16));
  auto first = AddPod(MemoryPod("a", 8));
  ASSERT_EQ(Bind(first, "used"), "");
  auto pod = AddPod(MemoryPod("b", 4));
  HttpReply reply = service_.Prioritize(Args(pod, {"empty", "used", "gone"}));
  ASSERT_EQ(reply.status, 200);
  auto scores = nlohmann::json::parse(reply.body);
  ASSERT_EQ(scores.size(), 3u);
  EXPECT_EQ(scores[0]["Host"], "empty");
  EXPECT_GT(scores[1]["Score"].get<int>(), scores[0]["Score"].get<int>());
  EXPECT_EQ(scores[2]["Score"], 0);
}

TEST_F(ExtenderServiceTest, BinpackFilterKeepsTheBestRankedNodes) {
  // The vendor manual's pods of 4 and 8 GiB share card 0 of node a; a pod
  // of 12 GiB then goes to a fresh card of a, not to untouched node b:
  // b fails the filter, so kube-scheduler's spreading scores cannot pick it.
  AddNode(SharingNode("a", 2, 16));
  AddNode(SharingNode("b", 2, 16));
  ASSERT_EQ(Bind(AddPod(MemoryPod("p4", 4)), "a"), "");
  ASSERT_EQ(Bind(AddPod(MemoryPod("p8", 8)), "a"), "");
  auto pod = AddPod(MemoryPod("p12", 12));
  HttpReply reply = service_.Filter(Args(pod, {"b", "a"}));
  ASSERT_EQ(reply.status, 200);
  auto result = nlohmann::json::parse(reply.body);
  EXPECT_EQ(result["NodeNames"], nlohmann::json({"a"}));
  // Unresolvable: b fits already, preemption must not evict pods there.
  EXPECT_FALSE(result["FailedNodes"].contains("b")) << result;
  EXPECT_NE(result["FailedAndUnresolvableNodes"]["b"].get<std::string>().find(
                "node a"),
            std::string::npos)
      << result;
  reply = service_.Prioritize(Args(pod, {"b", "a"}));
  auto scores = nlohmann::json::parse(reply.body);
  EXPECT_EQ(scores[1]["Score"], 10);
  EXPECT_LT(scores[0]["Score"].get<int>(), 10);
}

TEST_F(ExtenderServiceTest, BindFailureCounterCountsByStage) {
  AddNode(SharingNode("n1", 1, 4));
  auto pod = AddPod(MemoryPod("a", 8));
  EXPECT_NE(Bind(pod, "n1"), "");
  EXPECT_NE(registry_.Render().find(
                "gcushare_extender_bind_failures_total{stage=\"placement\"} 1"),
            std::string::npos);
}

}  // namespace
}  // namespace gcushare::extender

namespace gcushare::extender {
namespace {

// The plain-pod entry's prioritize, with host figures.
TEST(ExtenderServicePlainTest, RanksPlainPodsAndLeavesGcuPodsNeutral) {
  CardCache cache;
  kube::FakeKubeClient client;
  base::FakeClock clock;
  metrics::Registry registry;
  NodeResources resources;
  ExtenderService service(&cache, &client, &clock, Policy::kBinpack, &registry,
                          nullptr, &resources);
  for (const char* name : {"a", "b"}) {
    nlohmann::json node = SharingNode(name, 2, 16);
    node["status"]["allocatable"] = {{"cpu", "32"}, {"memory", "128Gi"}};
    cache.UpsertNode(node);
    ASSERT_TRUE(resources.UpsertNode(node).ok());
  }
  // 20 of a's CPUs are taken: a 4-CPU pod fits it tighter (BestFit's rule).
  nlohmann::json busy = MemoryPod("busy", 0);
  busy["metadata"]["uid"] = "6f1d2c3b-0000-4000-8000-00000000000a";
  busy["spec"]["nodeName"] = "a";
  busy["spec"]["containers"][0]["resources"] = {
      {"requests", {{"cpu", "20"}, {"memory", "1Gi"}}}};
  ASSERT_TRUE(resources.UpsertUnstoredPod(busy).ok());

  nlohmann::json plain = MemoryPod("plain", 0);
  plain["spec"]["containers"][0]["resources"] = {
      {"requests", {{"cpu", "4"}, {"memory", "1Gi"}}}};
  HttpReply reply =
      service.PrioritizePlain(Args(plain, {"a", "b", "cpu-only"}));
  ASSERT_EQ(reply.status, 200) << reply.body;
  EXPECT_EQ(nlohmann::json::parse(reply.body),
            nlohmann::json::parse(R"([{"Host":"a","Score":9},)"
                                  R"({"Host":"b","Score":8},)"
                                  R"({"Host":"cpu-only","Score":10}])"));

  reply = service.PrioritizePlain(Args(MemoryPod("gcu", 4), {"a", "b"}));
  ASSERT_EQ(reply.status, 200) << reply.body;
  EXPECT_EQ(nlohmann::json::parse(reply.body),
            nlohmann::json::parse(R"([{"Host":"a","Score":0},)"
                                  R"({"Host":"b","Score":0}])"));

  EXPECT_EQ(service.PrioritizePlain("{not json").status, 400);
}

}  // namespace
}  // namespace gcushare::extender
