#include "tests/peers/scheduler/pod_scheduler.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "base/testing/fake_clock.h"
#include "kube/resource.h"
#include "kube/testing/fake_kube_client.h"
#include "tests/peers/scheduler/fake_extender.h"

namespace gcushare::scheduler {
namespace {

using nlohmann::json;

ExtenderConfig GcuExtender(bool binder) {
  ExtenderConfig config;
  config.url_prefix = "http://127.0.0.1:1/gcushare-scheduler";
  config.filter_verb = "filter";
  config.prioritize_verb = "prioritize";
  if (binder) config.bind_verb = "bind";
  config.weight = 1;
  config.node_cache_capable = true;
  config.managed_resources = {{"enflame.com/gcu-memory", false}};
  return config;
}

class PodSchedulerTest : public ::testing::Test {
 protected:
  void AddNode(const std::string& name, const std::string& memory = "64") {
    auto node = client_.Seed(
        kube::Resource::Nodes(),
        {{"metadata", {{"name", name}}},
         {"status", {{"allocatable", {{"enflame.com/gcu-memory", memory}}}}}});
    ASSERT_TRUE(node.ok());
  }

  json AddPod(const std::string& name, const std::string& memory) {
    json pod = {{"metadata", {{"name", name}, {"namespace", "default"}}},
                {"spec", {{"containers", {{{"name", "main"}}}}}}};
    if (!memory.empty()) {
      pod["spec"]["containers"][0]["resources"]["limits"]
         ["enflame.com/gcu-memory"] = memory;
    }
    auto created = client_.Seed(kube::Resource::Pods(), pod);
    EXPECT_TRUE(created.ok());
    return *created;
  }

  Snapshot Snap() {
    Snapshot snapshot;
    for (const auto& resource :
         {kube::Resource::Nodes(), kube::Resource::Pods()}) {
      auto list = client_.List(resource, "", {});
      EXPECT_TRUE(list.ok());
      for (json& item : list->items) {
        (resource.plural == "nodes" ? snapshot.nodes : snapshot.pods)
            .push_back(std::make_shared<const json>(std::move(item)));
      }
    }
    return snapshot;
  }

  json Get(const std::string& name) {
    auto pod = client_.Get(kube::Resource::Pods(), "default", name);
    EXPECT_TRUE(pod.ok());
    return pod.ok() ? *pod : json();
  }

  std::vector<json> Events() {
    auto list = client_.List(kube::Resource::Events(), "default", {});
    EXPECT_TRUE(list.ok());
    return list.ok() ? list->items : std::vector<json>{};
  }

  PodScheduler Make(std::vector<Extender*> extenders,
                    MessageStyle style = MessageStyle::kCurrent) {
    SchedulerOptions options;
    options.clock = &clock_;
    options.style = style;
    options.host_name = "test";
    return PodScheduler(&client_, std::move(extenders), options);
  }

  kube::FakeKubeClient client_;
  base::FakeClock clock_;
};

TEST_F(PodSchedulerTest, PrioritizesAndBindsThroughTheExtender) {
  AddNode("n1");
  AddNode("n2");
  json pod = AddPod("p", "4");
  FakeExtender extender(GcuExtender(/*binder=*/true));
  extender.on_prioritize =
      [](const json&,
         const std::vector<ObjectPtr>&) -> StatusOr<std::vector<HostPriority>> {
    return std::vector<HostPriority>{{"n1", 3}, {"n2", 7}};
  };
  PodScheduler scheduler = Make({&extender});
  ScheduleResult result = scheduler.ScheduleOne(pod, Snap());
  EXPECT_TRUE(result.bound);
  EXPECT_EQ(result.node, "n2");
  ASSERT_EQ(extender.filter_calls().size(), 1u);
  EXPECT_EQ(extender.filter_calls()[0], (std::vector<std::string>{"n1", "n2"}));
  EXPECT_EQ(extender.prioritize_calls().size(), 1u);
  ASSERT_EQ(extender.bind_calls().size(), 1u);
  EXPECT_EQ(extender.bind_calls()[0].second, "n2");
  // The extender binds; the scheduler did not.
  EXPECT_EQ(Get("p")["spec"].value("nodeName", ""), "");
  const std::vector<json> events = Events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0]["reason"], "Scheduled");
  EXPECT_EQ(events[0]["type"], "Normal");
  EXPECT_EQ(events[0]["action"], "Binding");
  EXPECT_EQ(events[0]["message"], "Successfully assigned default/p to n2");
  EXPECT_EQ(events[0]["reportingComponent"], "default-scheduler");
  EXPECT_EQ(events[0]["reportingInstance"], "default-scheduler-test");
}

TEST_F(PodSchedulerTest, OneFeasibleNodeSkipsPrioritizeAndTheApiBinds) {
  AddNode("n1");
  AddNode("n2");
  json pod = AddPod("p", "4");
  FakeExtender extender(GcuExtender(/*binder=*/false));
  extender.on_filter = [](const json&, const std::vector<ObjectPtr>& nodes)
      -> StatusOr<ExtenderFilterResult> {
    ExtenderFilterResult result;
    result.nodes = {nodes[1]};
    result.failed["n1"] = "gcushare: insufficient GCU memory";
    return result;
  };
  PodScheduler scheduler = Make({&extender});
  ScheduleResult result = scheduler.ScheduleOne(pod, Snap());
  EXPECT_TRUE(result.bound);
  EXPECT_EQ(result.node, "n2");
  EXPECT_TRUE(extender.prioritize_calls().empty());
  EXPECT_EQ(Get("p")["spec"]["nodeName"], "n2");
}

TEST_F(PodSchedulerTest, TiesGoToTheFirstNode) {
  AddNode("n2");
  AddNode("n1");
  json pod = AddPod("p", "4");
  FakeExtender extender(GcuExtender(false));
  PodScheduler scheduler = Make({&extender});
  EXPECT_EQ(scheduler.Decide(pod, Snap()).node, "n1");
}

TEST_F(PodSchedulerTest, PodsWithoutManagedResourcesSkipTheExtender) {
  AddNode("n1");
  json pod = AddPod("plain", "");
  FakeExtender extender(GcuExtender(true));
  PodScheduler scheduler = Make({&extender});
  ScheduleResult result = scheduler.ScheduleOne(pod, Snap());
  EXPECT_TRUE(result.bound);
  EXPECT_TRUE(extender.filter_calls().empty());
  EXPECT_TRUE(extender.bind_calls().empty());
  EXPECT_EQ(Get("plain")["spec"]["nodeName"], "n1");
}

TEST_F(PodSchedulerTest, NoFitRecordsEventAndCondition) {
  AddNode("n1");
  AddNode("n2");
  AddNode("n3", "2");
  json pod = AddPod("p", "4");
  FakeExtender extender(GcuExtender(true));
  extender.on_filter =
      [](const json&,
         const std::vector<ObjectPtr>&) -> StatusOr<ExtenderFilterResult> {
    ExtenderFilterResult result;
    result.failed_and_unresolvable["n1"] =
        "insufficient GCU Memory in one gcu device";
    result.failed["n2"] = "insufficient GCU Memory in one gcu device";
    return result;
  };
  PodScheduler scheduler = Make({&extender});
  ScheduleResult result = scheduler.ScheduleOne(pod, Snap());
  EXPECT_FALSE(result.bound);
  EXPECT_EQ(result.reason, "Unschedulable");
  const std::string want =
      "0/3 nodes are available: 1 Insufficient enflame.com/gcu-memory, 2 "
      "insufficient GCU Memory in one gcu device. no new claims to "
      "deallocate, preemption: 0/3 nodes are available: 1 Preemption is not "
      "helpful for scheduling, 2 No preemption victims found for incoming "
      "pod.";
  EXPECT_EQ(result.message, want);
  EXPECT_EQ(extender.filter_calls()[0], (std::vector<std::string>{"n1", "n2"}));

  const std::vector<json> events = Events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0]["type"], "Warning");
  EXPECT_EQ(events[0]["reason"], "FailedScheduling");
  EXPECT_EQ(events[0]["action"], "Scheduling");
  EXPECT_EQ(events[0]["message"], want);
  const json updated = Get("p");
  const json& condition = updated["status"]["conditions"][0];
  EXPECT_EQ(condition["type"], "PodScheduled");
  EXPECT_EQ(condition["status"], "False");
  EXPECT_EQ(condition["reason"], "Unschedulable");
  EXPECT_EQ(condition["message"], want);
  EXPECT_TRUE(condition["lastProbeTime"].is_null());

  // The same outcome again: a second event, no second status write.
  const size_t writes = client_.actions().size();
  clock_.Advance(std::chrono::minutes(5));
  scheduler.ScheduleOne(updated, Snap());
  const std::vector<std::string> actions = client_.actions();
  for (size_t i = writes; i < actions.size(); ++i) {
    EXPECT_EQ(actions[i].rfind("patch", 0), std::string::npos) << actions[i];
  }
  EXPECT_EQ(Get("p")["status"]["conditions"][0]["lastTransitionTime"],
            condition["lastTransitionTime"]);
}

TEST_F(PodSchedulerTest, FilterErrorIsASchedulerError) {
  AddNode("n1");
  json pod = AddPod("p", "4");
  FakeExtender extender(GcuExtender(true));
  extender.on_filter =
      [](const json&,
         const std::vector<ObjectPtr>&) -> StatusOr<ExtenderFilterResult> {
    return Status(StatusCode::kUnknown,
                  "gcushare: simulated extender filter error");
  };
  PodScheduler scheduler = Make({&extender});
  ScheduleResult result = scheduler.ScheduleOne(pod, Snap());
  EXPECT_FALSE(result.bound);
  EXPECT_EQ(result.reason, "SchedulerError");
  EXPECT_EQ(result.message, "gcushare: simulated extender filter error");
  const json condition = Get("p")["status"]["conditions"][0];
  EXPECT_EQ(condition["reason"], "SchedulerError");
  EXPECT_EQ(condition["message"], "gcushare: simulated extender filter error");

  // An ignorable extender's error is skipped.
  ExtenderConfig ignorable = GcuExtender(false);
  ignorable.ignorable = true;
  FakeExtender skipped(ignorable);
  skipped.on_filter = extender.on_filter;
  PodScheduler tolerant = Make({&skipped});
  EXPECT_TRUE(tolerant.ScheduleOne(pod, Snap()).bound);
}

TEST_F(PodSchedulerTest, ExtenderBindErrorIsASchedulerError) {
  AddNode("n1");
  json pod = AddPod("p", "4");
  FakeExtender extender(GcuExtender(true));
  extender.on_bind = [](const json&, std::string_view) {
    return Status(StatusCode::kUnknown, "no card left");
  };
  PodScheduler scheduler = Make({&extender});
  ScheduleResult result = scheduler.ScheduleOne(pod, Snap());
  EXPECT_FALSE(result.bound);
  EXPECT_EQ(result.reason, "SchedulerError");
  EXPECT_EQ(result.message, "no card left");
  EXPECT_EQ(scheduler.assumed_pods(), 0u);
}

TEST_F(PodSchedulerTest, BoundPodsCountBeforeTheSnapshotShowsThem) {
  AddNode("n1");
  json first = AddPod("first", "40");
  json second = AddPod("second", "40");
  FakeExtender extender(GcuExtender(true));  // Binds nothing in the API.
  PodScheduler scheduler = Make({&extender});
  const Snapshot snapshot = Snap();
  EXPECT_TRUE(scheduler.ScheduleOne(first, snapshot).bound);
  EXPECT_EQ(scheduler.assumed_pods(), 1u);
  ScheduleResult result = scheduler.ScheduleOne(second, snapshot);
  EXPECT_FALSE(result.bound);
  EXPECT_NE(result.message.find("1 Insufficient enflame.com/gcu-memory"),
            std::string::npos);
}

TEST_F(PodSchedulerTest, NoNodes) {
  json pod = AddPod("p", "4");
  PodScheduler scheduler = Make({});
  ScheduleResult result = scheduler.ScheduleOne(pod, Snap());
  EXPECT_EQ(result.reason, "SchedulerError");
  EXPECT_EQ(result.message, "no nodes available to schedule pods");
}

}  // namespace
}  // namespace gcushare::scheduler

namespace gcushare::scheduler {
namespace {

// kube-scheduler 1.26's default scores (LeastAllocated, BalancedAllocation)
// spread pods by more than one extender priority level is worth at weight
// 1: only the extender's filter can keep a pod on the used node.
TEST_F(PodSchedulerTest, DefaultScoresSpreadUnlessTheExtenderFilters) {
  for (const std::string name : {"a", "b"}) {
    json node = {{"metadata", {{"name", name}}},
                 {"status",
                  {{"allocatable",
                    {{"cpu", "8"},
                     {"memory", "32Gi"},
                     {"enflame.com/gcu-memory", "32"}}}}}};
    ASSERT_TRUE(client_.Seed(kube::Resource::Nodes(), node).ok());
  }
  json running = {
      {"metadata", {{"name", "running"}, {"namespace", "default"}}},
      {"spec",
       {{"nodeName", "a"},
        {"containers",
         {{{"name", "main"},
           {"resources",
            {{"requests", {{"cpu", "4"}, {"memory", "16Gi"}}}}}}}}}}};
  ASSERT_TRUE(client_.Seed(kube::Resource::Pods(), running).ok());
  json pod = AddPod("p", "12");
  pod["spec"]["containers"][0]["resources"]["requests"] = {{"cpu", "1"},
                                                           {"memory", "1Gi"}};
  FakeExtender extender(GcuExtender(/*binder=*/false));
  extender.on_prioritize =
      [](const json&,
         const std::vector<ObjectPtr>&) -> StatusOr<std::vector<HostPriority>> {
    return std::vector<HostPriority>{{"a", 10}, {"b", 9}};
  };
  PodScheduler scheduler = Make({&extender});
  Decision spread = scheduler.Decide(pod, Snap());
  ASSERT_EQ(spread.kind, Decision::Kind::kFeasible);
  EXPECT_EQ(spread.node, "b");  // 9 * 10 + 186 beats 10 * 10 + 136.

  // The binpack filter passes only its best-ranked node.
  extender.on_filter = [](const json&, const std::vector<ObjectPtr>& nodes)
      -> StatusOr<ExtenderFilterResult> {
    ExtenderFilterResult result;
    result.nodes = {nodes[0]};
    result.failed_and_unresolvable["b"] =
        "GCU binpack: node a holds this pod with less card "
        "memory stranded";
    return result;
  };
  Decision packed = scheduler.Decide(pod, Snap());
  ASSERT_EQ(packed.kind, Decision::Kind::kFeasible);
  EXPECT_EQ(packed.node, "a");
}

}  // namespace
}  // namespace gcushare::scheduler
