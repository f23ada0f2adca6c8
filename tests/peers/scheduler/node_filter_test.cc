#include "tests/peers/scheduler/node_filter.h"

#include <gtest/gtest.h>

namespace gcushare::scheduler {
namespace {

using nlohmann::json;

json Node(const json& allocatable = {{"enflame.com/gcu-memory", "64"}}) {
  return {{"metadata",
           {{"name", "n1"}, {"labels", {{"enflame.com/gcushare", "true"}}}}},
          {"status", {{"allocatable", allocatable}}}};
}

json Pod(const std::string& memory = "4") {
  return {
      {"metadata", {{"name", "p"}, {"namespace", "default"}}},
      {"spec",
       {{"containers",
         {{{"name", "main"},
           {"resources",
            {{"limits", {{"enflame.com/gcu-memory", memory}}},
             {"requests",
              {{"cpu", "100m"}, {"enflame.com/gcu-memory", memory}}}}}}}}}}};
}

TEST(PodRequestsTest, SumsContainersAndTakesTheLargestInit) {
  json pod = Pod("4");
  pod["spec"]["containers"].push_back(
      {{"name", "side"},
       {"resources", {{"limits", {{"enflame.com/gcu-memory", "2"}}}}}});
  pod["spec"]["initContainers"] = {
      {{"name", "init"},
       {"resources", {{"requests", {{"enflame.com/gcu-memory", "9"}}}}}}};
  const ResourceAmounts requests = PodRequests(pod);
  EXPECT_EQ(requests.at("enflame.com/gcu-memory"), 9);
  EXPECT_EQ(requests.count("cpu"), 0u);  // Not an extended resource.

  pod["spec"]["initContainers"][0]["resources"]["requests"]
     ["enflame.com/gcu-memory"] = "1";
  EXPECT_EQ(PodRequests(pod).at("enflame.com/gcu-memory"), 6);
  // A restartable init container (sidecar) adds to the app containers.
  pod["spec"]["initContainers"][0]["restartPolicy"] = "Always";
  EXPECT_EQ(PodRequests(pod).at("enflame.com/gcu-memory"), 7);
}

TEST(FilterNodeTest, ResourcesFitCountsPodsOnTheNode) {
  const json other = Pod("62");
  json finished = Pod("64");
  finished["status"]["phase"] = "Succeeded";
  const ResourceAmounts requested = NodeRequested({&other, &finished});
  EXPECT_EQ(requested.at("enflame.com/gcu-memory"), 62);

  NodeStatus status = FilterNode(Pod("4"), Node(), requested, {});
  EXPECT_EQ(status.code, FilterCode::kUnschedulable);
  EXPECT_EQ(status.reasons,
            std::vector<std::string>{"Insufficient enflame.com/gcu-memory"});
  EXPECT_TRUE(FilterNode(Pod("2"), Node(), requested, {}).ok());
  // A node without the resource at all.
  EXPECT_FALSE(FilterNode(Pod("1"), Node(json::object()), {}, {}).ok());

  FilterOptions ignore;
  ignore.ignored_resource = [](std::string_view r) {
    return r == "enflame.com/gcu-memory";
  };
  EXPECT_TRUE(FilterNode(Pod("4"), Node(), requested, ignore).ok());
}

TEST(FilterNodeTest, NodeSelectorAndAffinity) {
  json pod = Pod();
  pod["spec"]["nodeSelector"] = {{"enflame.com/gcushare", "true"}};
  EXPECT_TRUE(FilterNode(pod, Node(), {}, {}).ok());
  pod["spec"]["nodeSelector"] = {{"enflame.com/gcushare", "false"}};
  NodeStatus status = FilterNode(pod, Node(), {}, {});
  EXPECT_EQ(status.code, FilterCode::kUnschedulableAndUnresolvable);
  EXPECT_EQ(status.reasons[0],
            "node(s) didn't match Pod's node affinity/selector");

  pod["spec"].erase("nodeSelector");
  pod["spec"]["affinity"]["nodeAffinity"]
     ["requiredDuringSchedulingIgnoredDuringExecution"] = {
         {"nodeSelectorTerms",
          {{{"matchExpressions",
             {{{"key", "zone"}, {"operator", "In"}, {"values", {"a"}}}}}},
           {{"matchFields",
             {{{"key", "metadata.name"},
               {"operator", "In"},
               {"values", {"n1"}}}}}}}}};
  EXPECT_TRUE(FilterNode(pod, Node(), {}, {}).ok());  // Second term.
  pod["spec"]["affinity"]["nodeAffinity"]
     ["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"]
         .erase(1);
  EXPECT_FALSE(FilterNode(pod, Node(), {}, {}).ok());
}

TEST(FilterNodeTest, UnschedulableAndTaints) {
  json node = Node();
  node["spec"]["unschedulable"] = true;
  NodeStatus status = FilterNode(Pod(), node, {}, {});
  EXPECT_EQ(status.reasons[0], "node(s) were unschedulable");
  json tolerant = Pod();
  tolerant["spec"]["tolerations"] = {
      {{"key", "node.kubernetes.io/unschedulable"},
       {"operator", "Exists"},
       {"effect", "NoSchedule"}}};
  EXPECT_TRUE(FilterNode(tolerant, node, {}, {}).ok());

  node = Node();
  node["spec"]["taints"] = {
      {{"key", "gpu"}, {"value", "yes"}, {"effect", "PreferNoSchedule"}},
      {{"key", "node.kubernetes.io/not-ready"}, {"effect", "NoSchedule"}}};
  status = FilterNode(Pod(), node, {}, {});
  EXPECT_EQ(status.code, FilterCode::kUnschedulableAndUnresolvable);
  EXPECT_EQ(status.reasons[0], "node(s) had untolerated taint(s)");
  FilterOptions v126;
  v126.style = MessageStyle::kV126;
  EXPECT_EQ(FilterNode(Pod(), node, {}, v126).reasons[0],
            "node(s) had untolerated taint {node.kubernetes.io/not-ready: }");
  json equal = Pod();
  equal["spec"]["tolerations"] = {
      {{"key", "node.kubernetes.io/not-ready"}, {"value", ""}}};
  EXPECT_TRUE(FilterNode(equal, node, {}, {}).ok());
}

}  // namespace
}  // namespace gcushare::scheduler
