#include "tests/peers/dra_scheduler/dra_scheduler.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/testing/fake_clock.h"
#include "kube/json_fields.h"
#include "kube/resource.h"
#include "kube/testing/fake_kube_client.h"

namespace gcushare::dra_scheduler {
namespace {

using kube::Resource;
using nlohmann::json;

json Gcu(int index) {
  return {{"name", "gcu-" + std::to_string(index)},
          {"allowMultipleAllocations", true},
          {"attributes", {{"index", {{"int", index}}}}},
          {"capacity",
           {{"memory",
             {{"value", "16Gi"},
              {"requestPolicy",
               {{"default", "16Gi"},
                {"validRange",
                 {{"min", "1Gi"}, {"step", "1Gi"}, {"max", "16Gi"}}}}}}}}}};
}

json Slice(const std::string& node, int cards) {
  json devices = json::array();
  for (int i = 0; i < cards; ++i) devices.push_back(Gcu(i));
  return {{"metadata", {{"name", node + "-gcu.enflame.com-x"}}},
          {"spec",
           {{"driver", "gcu.enflame.com"},
            {"nodeName", node},
            {"pool",
             {{"name", node}, {"generation", 1}, {"resourceSliceCount", 1}}},
            {"devices", devices}}}};
}

json Class(
    const std::string& name, const std::string& extended = "",
    const std::string& expression = "device.driver == \"gcu.enflame.com\"") {
  json device_class = {
      {"metadata", {{"name", name}}},
      {"spec", {{"selectors", {{{"cel", {{"expression", expression}}}}}}}}};
  if (!extended.empty()) {
    device_class["spec"]["extendedResourceName"] = extended;
  }
  return device_class;
}

json Template(const std::string& name, const std::string& memory) {
  json exactly = {{"deviceClassName", "gcu.enflame.com"}};
  if (!memory.empty()) {
    exactly["capacity"] = {{"requests", {{"memory", memory}}}};
  }
  return {{"metadata", {{"name", name}, {"namespace", "demo"}}},
          {"spec",
           {{"spec",
             {{"devices",
               {{"requests",
                 json::array({{{"name", "gcu"}, {"exactly", exactly}}})}}}}}}}};
}

json Pod(const std::string& name, json claims, json requests = json::object()) {
  return {{"metadata", {{"name", name}, {"namespace", "demo"}}},
          {"spec",
           {{"resourceClaims", claims},
            {"containers",
             json::array({{{"name", "main"},
                           {"resources", {{"requests", requests}}}}})}}},
          {"status", {{"phase", "Pending"}}}};
}

json FromTemplate(const std::string& template_name) {
  return json::array(
      {{{"name", "gcu"}, {"resourceClaimTemplateName", template_name}}});
}

class DraSchedulerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Seed(Resource::Nodes(), {{"metadata", {{"name", "node-a"}}}});
    Seed(Resource::DeviceClasses(), Class("gcu.enflame.com"));
  }

  json Seed(const Resource& resource, json object) {
    auto seeded = client_.Seed(resource, std::move(object));
    EXPECT_TRUE(seeded.ok()) << seeded.status().message();
    return seeded.ok() ? *seeded : json();
  }

  std::vector<PodOutcome> Schedule() {
    auto outcomes = scheduler_.SchedulePending();
    EXPECT_TRUE(outcomes.ok()) << outcomes.status().message();
    return outcomes.ok() ? *outcomes : std::vector<PodOutcome>();
  }

  json Get(const Resource& resource, const std::string& name) {
    auto object = client_.Get(resource, "demo", name);
    EXPECT_TRUE(object.ok()) << name << ": " << object.status().message();
    return object.ok() ? *object : json();
  }

  std::vector<json> Claims() {
    auto list = client_.List(Resource::ResourceClaims(), "", {});
    EXPECT_TRUE(list.ok());
    return list.ok() ? list->items : std::vector<json>();
  }

  void DeletePod(const std::string& name) {
    ASSERT_TRUE(client_.Delete(Resource::Pods(), "demo", name, {}).ok());
  }

  kube::FakeKubeClient client_;
  SequentialShareIds share_ids_;
  base::FakeClock clock_;
  DraScheduler scheduler_{&client_, &share_ids_, &clock_};
};

TEST_F(DraSchedulerTest, TemplateClaimIsCreatedAllocatedAndThePodBound) {
  Seed(Resource::ResourceSlices(), Slice("node-a", 1));
  Seed(Resource::ResourceClaimTemplates(), Template("four", "4Gi"));
  const json pod = Seed(Resource::Pods(), Pod("p1", FromTemplate("four")));

  const std::vector<PodOutcome> outcomes = Schedule();
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_TRUE(outcomes[0].bound) << outcomes[0].message;
  EXPECT_EQ(outcomes[0].node, "node-a");

  const json bound = Get(Resource::Pods(), "p1");
  EXPECT_EQ(bound["spec"]["nodeName"], "node-a");
  const std::vector<json> claims = Claims();
  ASSERT_EQ(claims.size(), 1u);
  const json& claim = claims[0];
  EXPECT_EQ(kube::NameOf(claim).rfind("p1-gcu-", 0), 0u);
  EXPECT_EQ(bound["status"]["resourceClaimStatuses"],
            json::parse(R"([{"name": "gcu", "resourceClaimName": ")" +
                        kube::NameOf(claim) + "\"}]"));
  EXPECT_EQ(
      claim["metadata"]["annotations"]["resource.kubernetes.io/pod-claim-name"],
      "gcu");
  EXPECT_EQ(claim["metadata"]["ownerReferences"][0]["uid"],
            pod["metadata"]["uid"]);
  EXPECT_EQ(claim["metadata"]["finalizers"],
            json::array({"resource.kubernetes.io/delete-protection"}));
  EXPECT_EQ(claim["status"],
            json::parse(R"({
    "allocation": {
      "devices": {"results": [{"request": "gcu", "driver": "gcu.enflame.com",
        "pool": "node-a", "device": "gcu-0",
        "shareID": "00000000-0000-4000-8000-000000000001",
        "consumedCapacity": {"memory": "4Gi"}}]},
      "nodeSelector": {"nodeSelectorTerms": [{"matchFields": [
        {"key": "metadata.name", "operator": "In", "values": ["node-a"]}]}]}},
    "reservedFor": [{"resource": "pods", "name": "p1", "uid": ")" +
                        pod["metadata"]["uid"].get<std::string>() + R"("}]})"))
      << claim["status"].dump();
  auto events = client_.List(Resource::Events(), "demo", {});
  ASSERT_TRUE(events.ok());
  ASSERT_EQ(events->items.size(), 1u);
  EXPECT_EQ(events->items[0]["reason"], "Scheduled");
  EXPECT_EQ(events->items[0]["message"],
            "Successfully assigned demo/p1 to node-a");
  // Nothing pending any more: a second pass does nothing.
  EXPECT_TRUE(Schedule().empty());
}

TEST_F(DraSchedulerTest, SharesFillTheCardThenThePodStaysPending) {
  Seed(Resource::ResourceSlices(), Slice("node-a", 1));
  Seed(Resource::ResourceClaimTemplates(), Template("four", "4Gi"));
  Seed(Resource::ResourceClaimTemplates(), Template("eight", "8Gi"));
  Seed(Resource::ResourceClaimTemplates(), Template("one", "1Gi"));
  Seed(Resource::Pods(), Pod("a", FromTemplate("four")));
  Seed(Resource::Pods(), Pod("b", FromTemplate("eight")));
  Seed(Resource::Pods(), Pod("c", FromTemplate("four")));
  Seed(Resource::Pods(), Pod("d", FromTemplate("one")));

  const std::vector<PodOutcome> outcomes = Schedule();
  ASSERT_EQ(outcomes.size(), 4u);
  EXPECT_TRUE(outcomes[0].bound);
  EXPECT_TRUE(outcomes[1].bound);
  EXPECT_TRUE(outcomes[2].bound);
  EXPECT_FALSE(outcomes[3].bound);
  const std::string message =
      "0/1 nodes are available: 1 cannot allocate all claims. still not "
      "schedulable, preemption: 0/1 nodes are available: 1 Preemption is not "
      "helpful for scheduling.";
  EXPECT_EQ(outcomes[3].reason, "Unschedulable");
  EXPECT_EQ(outcomes[3].message, message);
  const json pending = Get(Resource::Pods(), "d");
  EXPECT_FALSE(pending["spec"].contains("nodeName"));
  const json& condition = pending["status"]["conditions"][0];
  EXPECT_EQ(condition["type"], "PodScheduled");
  EXPECT_EQ(condition["status"], "False");
  EXPECT_EQ(condition["reason"], "Unschedulable");
  EXPECT_EQ(condition["message"], message);

  // Deleting pod b frees 8Gi: its claim is released and deleted, and d fits.
  const std::string b_claim =
      Get(Resource::Pods(),
          "b")["status"]["resourceClaimStatuses"][0]["resourceClaimName"];
  DeletePod("b");
  const std::vector<PodOutcome> again = Schedule();
  ASSERT_EQ(again.size(), 1u);
  EXPECT_TRUE(again[0].bound) << again[0].message;
  EXPECT_FALSE(client_.Get(Resource::ResourceClaims(), "demo", b_claim).ok());
  EXPECT_EQ(Claims().size(), 3u);
}

TEST_F(DraSchedulerTest, SharedClaimIsReservedForEachPodAndReleasedLast) {
  Seed(Resource::ResourceSlices(), Slice("node-a", 1));
  json claim = Template("x", "2Gi")["spec"];
  claim["metadata"] = {{"name", "shared"}, {"namespace", "demo"}};
  Seed(Resource::ResourceClaims(), claim);
  const json by_name =
      json::array({{{"name", "gcu"}, {"resourceClaimName", "shared"}}});
  Seed(Resource::Pods(), Pod("p1", by_name));
  Seed(Resource::Pods(), Pod("p2", by_name));
  const std::vector<PodOutcome> outcomes = Schedule();
  ASSERT_EQ(outcomes.size(), 2u);
  EXPECT_TRUE(outcomes[0].bound && outcomes[1].bound);
  json stored = Get(Resource::ResourceClaims(), "shared");
  EXPECT_EQ(stored["status"]["reservedFor"].size(), 2u);
  EXPECT_EQ(stored["status"]["allocation"]["devices"]["results"].size(), 1u);

  DeletePod("p1");
  auto released = scheduler_.ReleaseClaims();
  ASSERT_TRUE(released.ok());
  EXPECT_EQ(released->unreserved, 1);
  stored = Get(Resource::ResourceClaims(), "shared");
  EXPECT_EQ(stored["status"]["reservedFor"].size(), 1u);
  EXPECT_TRUE(stored["status"].contains("allocation"));

  DeletePod("p2");
  released = scheduler_.ReleaseClaims();
  ASSERT_TRUE(released.ok());
  EXPECT_EQ(released->deallocated, 1);
  EXPECT_EQ(released->deleted, 0);
  stored = Get(Resource::ResourceClaims(), "shared");
  EXPECT_FALSE(stored["status"].contains("allocation"));
  EXPECT_FALSE(stored["status"].contains("reservedFor"));
  EXPECT_EQ(stored["metadata"]["finalizers"], json::array());
  // Nothing left to do.
  released = scheduler_.ReleaseClaims();
  ASSERT_TRUE(released.ok());
  EXPECT_EQ(released->unreserved + released->deallocated + released->deleted,
            0);
}

TEST_F(DraSchedulerTest, ExtendedResourceCountMeansWholeDevices) {
  Seed(Resource::ResourceSlices(), Slice("node-a", 2));
  Seed(Resource::DeviceClasses(),
       Class("gcu-count.enflame.com", "enflame.com/gcu-count"));
  const json pod = Seed(Resource::Pods(),
                        Pod("counted", json::array(),
                            {{"cpu", "1"}, {"enflame.com/gcu-count", "2"}}));
  const std::vector<PodOutcome> outcomes = Schedule();
  ASSERT_EQ(outcomes.size(), 1u);
  ASSERT_TRUE(outcomes[0].bound) << outcomes[0].message;

  const std::vector<json> claims = Claims();
  ASSERT_EQ(claims.size(), 1u);
  const json& claim = claims[0];
  EXPECT_EQ(kube::NameOf(claim).rfind("counted-extended-resources-", 0), 0u);
  EXPECT_EQ(claim["metadata"]["annotations"]
                 ["resource.kubernetes.io/extended-resource-claim"],
            "true");
  const json& results = claim["status"]["allocation"]["devices"]["results"];
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0]["request"], "container-0-request-1");
  EXPECT_NE(results[0]["device"], results[1]["device"]);
  // Two whole cards: each unit consumes the policy default, the full card.
  EXPECT_EQ(results[0]["consumedCapacity"]["memory"], "16Gi");
  EXPECT_EQ(results[1]["consumedCapacity"]["memory"], "16Gi");
  const json bound = Get(Resource::Pods(), "counted");
  EXPECT_EQ(bound["status"]["extendedResourceClaimStatus"],
            json::parse(R"({"resourceClaimName": ")" + kube::NameOf(claim) +
                        R"(", "requestMappings": [{"containerName": "main",
                          "resourceName": "enflame.com/gcu-count",
                          "requestName": "container-0-request-1"}]})"));
  EXPECT_EQ(claim["status"]["reservedFor"][0]["uid"], pod["metadata"]["uid"]);

  // Deleting the pod deletes its extended-resource claim.
  DeletePod("counted");
  auto released = scheduler_.ReleaseClaims();
  ASSERT_TRUE(released.ok());
  EXPECT_EQ(released->deleted, 1);
  EXPECT_TRUE(Claims().empty());
}

TEST_F(DraSchedulerTest, ClaimsAndExtendedResourcesTogether) {
  Seed(Resource::ResourceSlices(), Slice("node-a", 2));
  Seed(Resource::DeviceClasses(),
       Class("gcu-count.enflame.com", "enflame.com/gcu-count"));
  json claim = Template("x", "2Gi")["spec"];
  claim["metadata"] = {{"name", "shared"}, {"namespace", "demo"}};
  Seed(Resource::ResourceClaims(), claim);
  const json by_name =
      json::array({{{"name", "gcu"}, {"resourceClaimName", "shared"}}});
  Seed(Resource::Pods(), Pod("p1", by_name));
  Seed(Resource::Pods(), Pod("p2", by_name, {{"enflame.com/gcu-count", "1"}}));
  const std::vector<PodOutcome> outcomes = Schedule();
  ASSERT_EQ(outcomes.size(), 2u);
  ASSERT_TRUE(outcomes[0].bound) << outcomes[0].message;
  ASSERT_TRUE(outcomes[1].bound) << outcomes[1].message;
  EXPECT_EQ(
      Get(Resource::ResourceClaims(), "shared")["status"]["reservedFor"].size(),
      2u);
  // gcu-0 holds the 2Gi share, so the whole-card unit takes gcu-1.
  for (const json& stored : Claims()) {
    if (kube::NameOf(stored) == "shared") continue;
    EXPECT_EQ(stored["status"]["allocation"]["devices"]["results"][0]["device"],
              "gcu-1");
  }
  EXPECT_EQ(Claims().size(), 2u);
}

TEST_F(DraSchedulerTest, ExtendedResourceMemoryIsDevicesNotGiB) {
  // A class over the same shareable cards, named like the device plugin's
  // memory resource: 4 units are 4 devices, and the node has 2.
  Seed(Resource::ResourceSlices(), Slice("node-a", 2));
  Seed(Resource::DeviceClasses(),
       Class("gcu-memory.enflame.com", "enflame.com/gcu-memory"));
  Seed(Resource::Pods(),
       Pod("four-gib", json::array(), {{"enflame.com/gcu-memory", "4"}}));
  Seed(Resource::Pods(),
       Pod("two-units", json::array(), {{"enflame.com/gcu-memory", "2"}}));
  const std::vector<PodOutcome> outcomes = Schedule();
  ASSERT_EQ(outcomes.size(), 2u);
  EXPECT_FALSE(outcomes[0].bound);
  EXPECT_EQ(outcomes[0].message.rfind(
                "0/1 nodes are available: 1 cannot allocate all claims.", 0),
            0u);
  // No claim is created for a pod that did not fit.
  ASSERT_TRUE(outcomes[1].bound) << outcomes[1].message;
  const std::vector<json> claims = Claims();
  ASSERT_EQ(claims.size(), 1u);
  EXPECT_EQ(claims[0]["status"]["allocation"]["devices"]["results"].size(), 2u);
}

TEST_F(DraSchedulerTest, AllocatedClaimPinsThePodToItsNode) {
  Seed(Resource::Nodes(), {{"metadata", {{"name", "node-b"}}}});
  Seed(Resource::ResourceSlices(), Slice("node-b", 1));
  json claim = Template("x", "2Gi")["spec"];
  claim["metadata"] = {{"name", "pinned"}, {"namespace", "demo"}};
  Seed(Resource::ResourceClaims(), claim);
  const json by_name =
      json::array({{{"name", "gcu"}, {"resourceClaimName", "pinned"}}});
  Seed(Resource::Pods(), Pod("first", by_name));
  std::vector<PodOutcome> outcomes = Schedule();
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_EQ(outcomes[0].node, "node-b");
  // A second pod sharing the claim can only go to node-b; with node-b's
  // slice gone it still must (the allocation stands), and node-a is out.
  Seed(Resource::Pods(), Pod("second", by_name));
  outcomes = Schedule();
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_EQ(outcomes[0].node, "node-b");
  ASSERT_TRUE(client_.Delete(Resource::Nodes(), "", "node-b", {}).ok());
  Seed(Resource::Pods(), Pod("third", by_name));
  outcomes = Schedule();
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_FALSE(outcomes[0].bound);
  EXPECT_EQ(outcomes[0].message,
            "0/1 nodes are available: 1 resourceclaim not available on the "
            "node. still not schedulable, preemption: 0/1 nodes are "
            "available: 1 Preemption is not helpful for scheduling.");
}

TEST_F(DraSchedulerTest, MissingClaimIsAPreFilterFailure) {
  Seed(Resource::ResourceSlices(), Slice("node-a", 1));
  Seed(Resource::Pods(),
       Pod("p",
           json::array({{{"name", "gcu"}, {"resourceClaimName", "nope"}}})));
  const std::vector<PodOutcome> outcomes = Schedule();
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_FALSE(outcomes[0].bound);
  EXPECT_EQ(outcomes[0].reason, "Unschedulable");
  EXPECT_EQ(outcomes[0].message,
            "0/1 nodes are available: resourceclaim.resource.k8s.io \"nope\" "
            "not found. no new claims to deallocate, preemption: 0/1 nodes "
            "are available: 1 Preemption is not helpful for scheduling.");
  // The same failure again writes only a new FailedScheduling event, not
  // the unchanged condition.
  const size_t writes = client_.actions().size();
  Schedule();
  const std::vector<std::string> actions = client_.actions();
  for (size_t i = writes; i < actions.size(); ++i) {
    EXPECT_TRUE(actions[i].rfind("list", 0) == 0 ||
                actions[i].rfind("create events", 0) == 0)
        << actions[i];
  }
  auto events = client_.List(Resource::Events(), "demo", {});
  ASSERT_TRUE(events.ok());
  ASSERT_EQ(events->items.size(), 2u);
  EXPECT_EQ(events->items[0]["reason"], "FailedScheduling");
  EXPECT_EQ(events->items[0]["type"], "Warning");
  EXPECT_EQ(events->items[0]["message"], outcomes[0].message);
}

TEST_F(DraSchedulerTest, CelErrorIsASchedulerError) {
  Seed(Resource::ResourceSlices(), Slice("node-a", 1));
  Seed(Resource::DeviceClasses(),
       Class("broken", "", "device.attributes[\"gcu.enflame.com\"].numa == 0"));
  json claim_template = Template("b", "");
  claim_template["spec"]["spec"]["devices"]["requests"][0]["exactly"]
                ["deviceClassName"] = "broken";
  Seed(Resource::ResourceClaimTemplates(), claim_template);
  Seed(Resource::Pods(), Pod("p", FromTemplate("b")));
  const std::vector<PodOutcome> outcomes = Schedule();
  ASSERT_EQ(outcomes.size(), 1u);
  EXPECT_FALSE(outcomes[0].bound);
  EXPECT_EQ(outcomes[0].reason, "SchedulerError");
  EXPECT_EQ(outcomes[0].message,
            "running \"DynamicResources\" filter plugin: class broken: "
            "selector #0: CEL runtime error: no such key: numa");
  const json pod = Get(Resource::Pods(), "p");
  EXPECT_EQ(pod["status"]["conditions"][0]["reason"], "SchedulerError");
  // The claim exists (the controller made it) but stays unallocated.
  const std::vector<json> claims = Claims();
  ASSERT_EQ(claims.size(), 1u);
  EXPECT_FALSE(claims[0].contains("status") &&
               claims[0]["status"].contains("allocation"));
  // A second pass reuses the recorded claim instead of making another.
  Schedule();
  EXPECT_EQ(Claims().size(), 1u);
}

TEST_F(DraSchedulerTest, QueueOrderIsPriorityThenCreation) {
  Seed(Resource::ResourceSlices(), Slice("node-a", 1));
  // Created in this order within one second: names do not decide.
  for (const char* name : {"zeta", "beta", "alpha"}) {
    Seed(Resource::Pods(), Pod(name, json::array()));
  }
  json urgent = Pod("urgent", json::array());
  urgent["spec"]["priority"] = 1000;
  Seed(Resource::Pods(), urgent);
  const std::vector<PodOutcome> outcomes = Schedule();
  ASSERT_EQ(outcomes.size(), 4u);
  EXPECT_EQ(outcomes[0].pod, "demo/urgent");
  EXPECT_EQ(outcomes[1].pod, "demo/zeta");
  EXPECT_EQ(outcomes[2].pod, "demo/beta");
  EXPECT_EQ(outcomes[3].pod, "demo/alpha");
}

TEST_F(DraSchedulerTest, OtherSchedulersAndBoundPodsAreLeftAlone) {
  Seed(Resource::ResourceSlices(), Slice("node-a", 1));
  json other = Pod("other", json::array());
  other["spec"]["schedulerName"] = "my-scheduler";
  Seed(Resource::Pods(), other);
  json bound = Pod("bound", json::array());
  bound["spec"]["nodeName"] = "node-a";
  Seed(Resource::Pods(), bound);
  EXPECT_TRUE(Schedule().empty());
}

}  // namespace
}  // namespace gcushare::dra_scheduler
