// A restarted extender answers no verb before its cache synced: with an
// empty cache every card would look free and be handed out again (the chaos
// test's over-commit after an extender SIGKILL).
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "extender/testing/objects.h"
#include "testing/eventually.h"
#include "tests/extender/extender_fixture.h"

namespace gcushare {
namespace {

using extender::testing::Assigned;
using extender::testing::MemoryPod;
using extender::testing::SharingNode;
using json = nlohmann::json;

TEST_F(ExtenderHttpTest, VerbsAre503UntilTheCacheSynced) {
  CreateNode(SharingNode("n1", 1, 16));
  // Card 0 is full: the pod holding it is what the unsynced cache misses.
  CreatePod(Assigned(MemoryPod("holder", 16), "n1", {0}, 16));
  pod_list_refusal_ = 500;
  StartExtender({}, /*wait_synced=*/false);
  EXPECT_EQ(extender_.Get("/healthz").status, 503);

  json pod = CreatePod(MemoryPod("newcomer", 8));
  json filter = {{"Pod", pod}, {"Nodes", nullptr}, {"NodeNames", {"n1"}}};
  auto filtered = extender_.Post("/filter", filter.dump());
  EXPECT_EQ(filtered.status, 503) << filtered.body;
  EXPECT_EQ(filtered.body, "cache not synced yet\n");
  EXPECT_EQ(extender_.Post("/prioritize", filter.dump()).status, 503);
  json bind = {{"PodName", "newcomer"},
               {"PodNamespace", "default"},
               {"PodUID", pod["metadata"]["uid"]},
               {"Node", "n1"}};
  EXPECT_EQ(extender_.Post("/bind", bind.dump()).status, 503);
  EXPECT_FALSE(GetPod("newcomer")["spec"].contains("nodeName"));

  // Synced, it knows the card is full.
  pod_list_refusal_ = 0;
  ASSERT_TRUE(testing::Eventually([&] {
    return extender_.Get("/healthz").status == 200;
  })) << "never synced";
  EXPECT_EQ(Filter(pod, {"n1"})["NodeNames"], json::array());
}

}  // namespace
}  // namespace gcushare
