// PodFields()/NodeFields() against the whole objects: the records placement
// builds from a pod or node decoded through the field tree (the streaming
// path of the informers) equal those built from the whole DOM.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "contract/names.h"
#include "contract/pod_request.h"
#include "extender/cache_feed.h"
#include "extender/pod_usage.h"
#include "extender/testing/objects.h"
#include "extender/testing/scale_cluster.h"
#include "json/pruned_parse.h"
#include "placement/node_view.h"

namespace gcushare::extender {

using placement::NodeView;
using placement::ReadNodeView;

namespace {

using nlohmann::json;
using testing::Assigned;
using testing::MemoryPod;
using testing::Pod;

std::string Join(const std::vector<uint32_t>& cards) {
  std::string out;
  for (uint32_t c : cards) out += std::to_string(c) + ",";
  return out;
}

// Everything the feeds and the cache derive from a pod, as text.
std::string PodRecords(const json& pod) {
  std::ostringstream out;
  auto kept = PodKeptForm(pod);
  out << "kept: " << (kept ? kept->dump() : "none") << "\n";
  auto request = contract::ComputePodRequest(pod);
  if (request.ok()) {
    out << "request: " << request->memory_units << " " << request->cards;
    for (const auto& c : request->containers) {
      out << " [" << c.name << " " << c.init << c.sidecar << " "
          << c.memory_units << " " << c.cards << "]";
    }
  } else {
    out << "request error: " << request.status().message();
  }
  PodUsage id = PodIdentity(pod);
  out << "\nidentity: " << id.uid << " " << id.Key() << " " << id.node << " "
      << id.create_time << " finished " << PodFinished(pod) << "\n";
  auto usage = PodUsageFromPod(pod);
  if (!usage.ok()) {
    out << "usage error: " << usage.status().message();
  } else if (!usage->has_value()) {
    out << "usage: none";
  } else {
    const PodUsage& u = **usage;
    out << "usage: " << u.uid << " " << u.Key() << " " << u.node << " "
        << Join(u.cards) << " " << u.units << " " << u.whole << " "
        << u.card_count << " " << u.problem;
  }
  return out.str();
}

std::string NodeRecords(const json& node) {
  std::ostringstream out;
  auto kept = NodeKeptForm(node);
  out << "kept: " << (kept ? kept->dump() : "none") << "\n";
  NodeView view = ReadNodeView(node);
  out << "layout: " << view.name << " " << view.unit_text << " "
      << view.problem;
  for (const auto& c : view.layout.cards) {
    out << " [" << c.index << " " << c.uuid << " " << c.memory_units << " "
        << c.healthy << " " << (c.numa ? *c.numa : -1) << "]";
  }
  return out.str();
}

// The object as the informer gets it over the wire: its text decoded
// through `fields`.
json Streamed(const json& object, const gcushare::json::FieldTree& fields) {
  auto pruned = gcushare::json::ParsePruned(object.dump(), fields, "object");
  EXPECT_TRUE(pruned.ok()) << pruned.status();
  return pruned.ok() ? *pruned : json();
}

std::vector<json> Pods() {
  std::vector<json> pods;
  pods.push_back(MemoryPod("pending", 4, "u1"));
  pods.push_back(Assigned(MemoryPod("bound", 4, "u2"), "n1", {3}, 16));
  json whole = Pod("team", "whole", "u3", {{"a", 0, 2}, {"b", 0, 1}});
  pods.push_back(Assigned(whole, "n1", {0, 1}, 16));
  json realistic = Assigned(MemoryPod("realistic", 2, "u4"), "n2", {5}, 16);
  testing::AddRealisticPodFields(realistic, 4);
  realistic["metadata"]["annotations"]
           ["kubectl.kubernetes.io/last-applied-configuration"] =
               realistic.dump();
  pods.push_back(realistic);
  json plain = Pod("default", "plain", "u5", {{"web"}});
  testing::AddRealisticPodFields(plain, 5);
  plain["spec"]["nodeName"] = "n2";
  pods.push_back(plain);
  json finished = Assigned(MemoryPod("done", 4, "u6"), "n1", {2}, 16);
  finished["status"]["phase"] = "Succeeded";
  pods.push_back(finished);
  json bad_time = Assigned(MemoryPod("bad-time", 4, "u7"), "n1", {1}, 16);
  bad_time["metadata"]["annotations"][contract::kPodAssignTime] = "soon";
  pods.push_back(bad_time);
  json no_id = Assigned(MemoryPod("no-id", 4, "u8"), "n1", {1}, 16);
  no_id["metadata"]["annotations"].erase(contract::kPodDeviceId);
  pods.push_back(no_id);
  json bad_quantity = MemoryPod("bad-quantity", 4, "u9");
  bad_quantity["spec"]["containers"][0]["resources"]["limits"]
              [contract::kResourceMemory] = "1.5";
  pods.push_back(bad_quantity);
  json numeric = MemoryPod("numeric", 0, "u10");
  numeric["spec"]["containers"][0]["resources"]["limits"]
         [contract::kResourceMemory] = 3;
  pods.push_back(numeric);
  json sidecar = Pod("team", "sidecar", "u11", {{"main", 2}});
  sidecar["spec"]["initContainers"] = {
      {{"name", "init"},
       {"resources", {{"limits", {{contract::kResourceMemory, "6"}}}}}},
      {{"name", "side"},
       {"restartPolicy", "Always"},
       {"resources", {{"limits", {{contract::kResourceMemory, "1"}}}}}}};
  pods.push_back(sidecar);
  json not_a_list = MemoryPod("not-a-list", 4, "u12");
  not_a_list["spec"]["containers"] = "main";
  pods.push_back(not_a_list);
  json non_object = MemoryPod("non-object", 4, "u13");
  non_object["spec"]["containers"].push_back(7);
  pods.push_back(non_object);
  pods.push_back(
      {{"metadata", "m"}, {"spec", {{"containers", json::array()}}}});
  pods.push_back({{"metadata", {{"name", "no-spec"}, {"uid", "u14"}}}});
  json odd_types = Assigned(MemoryPod("odd-types", 4, "u15"), "n1", {1}, 16);
  odd_types["metadata"]["annotations"][contract::kPodAssigned] = true;
  odd_types["status"] = "Running";
  pods.push_back(odd_types);
  return pods;
}

std::vector<json> Nodes() {
  std::vector<json> nodes;
  nodes.push_back(testing::SharingNode("n1", 8, 16));
  nodes.push_back(testing::SharingNode("n2", 4, 32, "0.1", {1, 3}));
  testing::ScaleClusterSpec spec;
  nodes.push_back(testing::ScaleNode(spec, 7));
  nodes.push_back(testing::PlainNode("plain"));
  json bad_unit = testing::SharingNode("bad-unit", 2, 16);
  bad_unit["metadata"]["annotations"][contract::kNodeMemoryUnit] = "3";
  nodes.push_back(bad_unit);
  json bad_devices = testing::SharingNode("bad-devices", 2, 16);
  bad_devices["metadata"]["annotations"][contract::kNodeDevices] = "[{";
  nodes.push_back(bad_devices);
  json array_labels = testing::SharingNode("array-labels", 2, 16);
  array_labels["metadata"]["labels"] = json::array({"x"});
  nodes.push_back(array_labels);
  return nodes;
}

TEST(PodFieldsTest, StreamedPodsGiveTheSameRecordsAsWholeOnes) {
  const gcushare::json::FieldTree fields = PodFields();
  for (const json& pod : Pods()) {
    SCOPED_TRACE(pod.dump().substr(0, 200));
    const json streamed = Streamed(pod, fields);
    EXPECT_EQ(PodRecords(streamed), PodRecords(pod));
    EXPECT_LE(streamed.dump().size(), pod.dump().size());
  }
}

TEST(PodFieldsTest, DropsWhatPlacementDoesNotRead) {
  json pod = Assigned(MemoryPod("realistic", 2, "u4"), "n2", {5}, 16);
  testing::AddRealisticPodFields(pod, 4);
  const json streamed = Streamed(pod, PodFields());
  EXPECT_FALSE(streamed["metadata"].contains("labels"));
  EXPECT_FALSE(streamed["metadata"].contains("ownerReferences"));
  EXPECT_FALSE(streamed["spec"]["containers"][0].contains("env"));
  EXPECT_FALSE(streamed["spec"].contains("tolerations"));
  EXPECT_EQ(streamed["spec"]["nodeName"], "n2");
}

TEST(NodeFieldsTest, StreamedNodesGiveTheSameRecordsAsWholeOnes) {
  const gcushare::json::FieldTree fields = NodeFields();
  for (const json& node : Nodes()) {
    SCOPED_TRACE(node.dump().substr(0, 200));
    const json streamed = Streamed(node, fields);
    EXPECT_EQ(NodeRecords(streamed), NodeRecords(node));
    // Of the status, only allocatable cpu and memory (NodeResources).
    if (streamed.contains("status")) {
      for (const auto& [key, value] : streamed["status"].items()) {
        EXPECT_EQ(key, "allocatable");
        for (const auto& [resource, quantity] : value.items()) {
          EXPECT_TRUE(resource == "cpu" || resource == "memory") << resource;
        }
      }
    }
  }
}

}  // namespace
}  // namespace gcushare::extender
