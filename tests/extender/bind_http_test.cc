// The extender's bind over HTTP against the stand-in API server with
// faults: one write per bind, and Bindings whose outcome is unclear.
#include <gtest/gtest.h>

#include "extender/testing/objects.h"
#include "tests/extender/extender_fixture.h"

namespace gcushare {
namespace {

using extender::testing::MemoryPod;
using extender::testing::SharingNode;
using nlohmann::json;

// The assignment annotations travel in the Binding, which the API server
// merges into the pod as it binds it: bind needs no separate PATCH, and a
// Binding that fails leaves nothing on the pod.
TEST_F(ExtenderHttpTest, BindWritesThePodOnceThroughTheBinding) {
  CreateNode(SharingNode("n1", 1, 16));
  StartExtender();
  WaitForNode("n1");
  json pod = CreatePod(MemoryPod("a", 6));
  pod_patch_refusal_ = 403;
  EXPECT_EQ(Bind(pod, "n1"), "");
  pod_patch_refusal_ = 0;
  json bound = GetPod("a");
  EXPECT_EQ(bound["spec"]["nodeName"], "n1");
  EXPECT_EQ(Annotation("a", "enflame.com/gcu-device-id"), "0");
  EXPECT_EQ(Annotation("a", "enflame.com/gcu-device-memory-request"), "6");
  EXPECT_EQ(Annotation("a", "enflame.com/gcu-device-assigned"), "false");
  EXPECT_EQ(Inspect("n1")["usedGCU"], 6);
}

TEST_F(ExtenderHttpTest, BindingRefusedBeforeCommitLeavesNoTrace) {
  CreateNode(SharingNode("n1", 1, 16));
  StartExtender();
  WaitForNode("n1");
  json pod = CreatePod(MemoryPod("a", 6));
  binding_refusal_ = 500;
  std::string error = Bind(pod, "n1");
  binding_refusal_ = 0;
  EXPECT_NE(error.find("cannot bind pod default/a to n1"), std::string::npos)
      << error;
  json after = GetPod("a");
  EXPECT_FALSE(after["spec"].contains("nodeName")) << after;
  EXPECT_FALSE(
      after["metadata"].contains("annotations") &&
      after["metadata"]["annotations"].contains("enflame.com/gcu-device-id"))
      << after;
  EXPECT_EQ(Inspect("n1")["usedGCU"], 0);
  // kube-scheduler's next attempt gets the memory.
  EXPECT_EQ(Bind(pod, "n1"), "");
  EXPECT_EQ(Inspect("n1")["usedGCU"], 6);
}

// The connection breaks after the Binding committed: the extender cannot
// know from the answer, reads the pod back and finds it bound: success,
// and the memory stays counted.
TEST_F(ExtenderHttpTest, ConnectionBrokenAfterTheBindingCommittedIsSuccess) {
  CreateNode(SharingNode("n1", 1, 16));
  StartExtender();
  WaitForNode("n1");
  json pod = CreatePod(MemoryPod("a", 6));
  binding_answer_ = apiserver::kBreakConnection;
  EXPECT_EQ(Bind(pod, "n1"), "");
  binding_answer_ = 0;
  EXPECT_EQ(GetPod("a")["spec"]["nodeName"], "n1");
  EXPECT_EQ(Annotation("a", "enflame.com/gcu-device-id"), "0");
  EXPECT_EQ(Inspect("n1")["usedGCU"], 6);
  json b = CreatePod(MemoryPod("b", 12));
  EXPECT_EQ(Filter(b, {"n1"})["NodeNames"], json::array());
  // The answer really was cut (the log is complete once it exited).
  ASSERT_TRUE(extender_.Stop().ok());
  EXPECT_NE(extender_.output().find("but the pod is bound to n1"),
            std::string::npos)
      << extender_.output();
}

}  // namespace
}  // namespace gcushare
