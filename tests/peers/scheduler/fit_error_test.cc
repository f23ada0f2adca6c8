#include "tests/peers/scheduler/fit_error.h"

#include <gtest/gtest.h>

namespace gcushare::scheduler {
namespace {

const nlohmann::json kPod = {{"metadata", {{"name", "p"}}}, {"spec", {}}};

// The three-node cluster of the ncc-false captures: one node without the
// sharing label, two rejected by the extender.
Diagnosis Captured(const std::string& reason0, const std::string& reason1) {
  Diagnosis d;
  d.num_all_nodes = 3;
  d.statuses["vm"] = {FilterCode::kUnschedulableAndUnresolvable,
                      {"node(s) didn't match Pod's node affinity/selector"}};
  d.statuses["gcu-node-0"] = {FilterCode::kUnschedulable, {reason0}};
  d.statuses["gcu-node-1"] = {FilterCode::kUnschedulable, {reason1}};
  return d;
}

// Byte for byte what kube-scheduler 1.26.1 wrote
// (tests/conformance/extender-ncc-false-filter-failall*.outcome.yaml).
TEST(FitErrorTest, ReproducesKubeScheduler126) {
  EXPECT_EQ(
      UnschedulableMessage(
          kPod,
          Captured("gcushare: insufficient GCU memory on gcu-node-0",
                   "gcushare: insufficient GCU memory on gcu-node-1"),
          MessageStyle::kV126),
      "0/3 nodes are available: 1 gcushare: insufficient GCU memory on "
      "gcu-node-0, 1 gcushare: insufficient GCU memory on gcu-node-1, 1 "
      "node(s) didn't match Pod's node affinity/selector. preemption: 0/3 "
      "nodes are available: 1 Preemption is not helpful for scheduling, 2 No "
      "preemption victims found for incoming pod..");
  EXPECT_EQ(
      UnschedulableMessage(kPod,
                           Captured("gcushare: insufficient GCU memory",
                                    "gcushare: insufficient GCU memory"),
                           MessageStyle::kV126),
      "0/3 nodes are available: 1 node(s) didn't match Pod's node "
      "affinity/selector, 2 gcushare: insufficient GCU memory. preemption: "
      "0/3 nodes are available: 1 Preemption is not helpful for scheduling, "
      "2 No preemption victims found for incoming pod..");
}

TEST(FitErrorTest, CurrentFormat) {
  EXPECT_EQ(
      UnschedulableMessage(kPod,
                           Captured("Insufficient enflame.com/gcu-memory",
                                    "Insufficient enflame.com/gcu-memory"),
                           MessageStyle::kCurrent),
      "0/3 nodes are available: 1 node(s) didn't match Pod's node "
      "affinity/selector, 2 Insufficient enflame.com/gcu-memory. no new "
      "claims to deallocate, preemption: 0/3 nodes are available: 1 "
      "Preemption is not helpful for scheduling, 2 No preemption victims "
      "found for incoming pod.");
}

TEST(FitErrorTest, UnresolvableEverywhere) {
  Diagnosis d;
  d.num_all_nodes = 3;
  for (const char* node : {"a", "b", "c"}) {
    d.statuses[node] = {FilterCode::kUnschedulableAndUnresolvable,
                        {"insufficient GCU Memory in one gcu device"}};
  }
  EXPECT_EQ(UnschedulableMessage(kPod, d, MessageStyle::kCurrent),
            "0/3 nodes are available: 3 insufficient GCU Memory in one gcu "
            "device. no new claims to deallocate, preemption: 0/3 nodes are "
            "available: 3 Preemption is not helpful for scheduling.");
}

TEST(FitErrorTest, PodThatNeverPreempts) {
  nlohmann::json pod = kPod;
  pod["spec"]["preemptionPolicy"] = "Never";
  Diagnosis d;
  d.num_all_nodes = 1;
  d.statuses["a"] = {FilterCode::kUnschedulable, {"Insufficient x.io/y"}};
  EXPECT_EQ(UnschedulableMessage(pod, d, MessageStyle::kCurrent),
            "0/1 nodes are available: 1 Insufficient x.io/y. no new claims to "
            "deallocate, preemption: not eligible due to "
            "preemptionPolicy=Never.");
  EXPECT_EQ(UnschedulableMessage(pod, d, MessageStyle::kV126),
            "0/1 nodes are available: 1 Insufficient x.io/y. preemption: not "
            "eligible due to preemptionPolicy=Never..");
}

TEST(FitErrorTest, NodesDroppedSilentlyAreNotCounted) {
  // An extender that returns fewer nodes without naming the others.
  Diagnosis d;
  d.num_all_nodes = 2;
  d.statuses["a"] = {FilterCode::kUnschedulable, {"full"}};
  EXPECT_EQ(FitErrorText(d), "0/2 nodes are available: 1 full.");
  EXPECT_EQ(UnschedulableMessage(kPod, d, MessageStyle::kV126),
            "0/2 nodes are available: 1 full. preemption: 0/1 nodes are "
            "available: 1 No preemption victims found for incoming pod..");
}

}  // namespace
}  // namespace gcushare::scheduler
