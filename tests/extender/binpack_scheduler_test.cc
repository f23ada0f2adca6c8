// The binpack policy under kube-scheduler's own scores, end to end over
// HTTP: the real extender binary, the stand-in kube-scheduler binary
// (in-tree filters, then the extender; the default profile's
// NodeResourcesFit LeastAllocated and BalancedAllocation scores plus the
// extender's priority times its weight) with the shipped scheduler
// configuration (configs/scheduler/scheduler-config-v1.yaml), and the
// stand-in API server.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "extender/testing/objects.h"
#include "testing/files.h"
#include "testing/subprocess.h"
#include "tests/extender/extender_fixture.h"

namespace gcushare {
namespace {

using extender::testing::MemoryPod;
using extender::testing::SharingNode;
using nlohmann::json;

// A sharing node of two 16 GiB cards with the CPU and memory kube-scheduler
// scores by.
json ScoredNode(const std::string& name) {
  json node = SharingNode(name, 2, 16);
  node["status"]["allocatable"]["cpu"] = "32";
  node["status"]["allocatable"]["memory"] = "128Gi";
  node["status"]["allocatable"]["pods"] = "110";
  node["status"]["allocatable"]["enflame.com/gcu-memory"] = "32";
  node["status"]["capacity"] = node["status"]["allocatable"];
  return node;
}

// A pod of `gib` GiB that also asks 8 CPUs and 32 GiB of host memory, so
// that LeastAllocated clearly prefers an empty node.
json ScoredPod(const std::string& name, int gib) {
  json pod = MemoryPod(name, gib);
  pod["spec"]["containers"][0]["resources"]["requests"] = {{"cpu", "8"},
                                                           {"memory", "32Gi"}};
  return pod;
}

class BinpackSchedulerTest : public ExtenderHttpTest {
 protected:
  // The shipped configuration (both entries: the GCU entry and the
  // plain-pod entry) with the test extender's address; without the
  // plain-pod entry when `plain_entry` is false (chart
  // extender.rankPlainPods: false).
  std::string WriteShippedConfig(bool plain_entry = true) {
    std::string text = testing::ReadFileOrEmpty(
        testing::RunfilePath("configs/scheduler/scheduler-config-v1.yaml"));
    const std::string key = "urlPrefix: ";
    int entries = 0;
    for (size_t at = text.find(key); at != std::string::npos;
         at = text.find(key, at + 1)) {
      if (++entries == 2 && !plain_entry) {
        text.erase(text.rfind('\n', at) + 1);
        break;
      }
      size_t end = text.find('\n', at);
      text.replace(at, end - at,
                   key +
                       "http://127.0.0.1:" + std::to_string(extender_.port()) +
                       "/gcushare-scheduler");
    }
    EXPECT_EQ(entries, 2) << text;
    EXPECT_EQ(text.find("plain/prioritize") != std::string::npos, plain_entry)
        << text;
    std::string path = dir_ + (plain_entry ? "/scheduler-config.yaml"
                                           : "/scheduler-config-gcu-only.yaml");
    testing::WriteFileOrDie(path, text);
    return path;
  }

  // Runs the stand-in kube-scheduler once over the pending pods.
  void ScheduleOnce(const std::string& config) {
    auto result = testing::RunProcess(
        {testing::RunfilePath("tests/peers/scheduler/scheduler"),
         "--server=http://127.0.0.1:" + std::to_string(api_.port()),
         "--config=" + config, "--log-dir=" + dir_ + "/scheduler-logs",
         "--once"});
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_EQ(result->exit_code, 0) << result->out << result->err;
  }
};

TEST_F(BinpackSchedulerTest, TwelveGibGoesToAFreshCardOfTheUsedNode) {
  CreateNode(ScoredNode("a"));
  CreateNode(ScoredNode("b"));
  StartExtender();
  WaitForNode("a");
  WaitForNode("b");
  const std::string config = WriteShippedConfig();
  for (auto [name, gib] : {std::pair{"p4", 4}, {"p8", 8}}) {
    CreatePod(ScoredPod(name, gib));
    ScheduleOnce(config);
  }
  const std::string first = GetPod("p4")["spec"]["nodeName"];
  ASSERT_FALSE(first.empty());
  EXPECT_EQ(GetPod("p8")["spec"]["nodeName"], first);
  EXPECT_EQ(Annotation("p4", "enflame.com/gcu-device-id"), "0");
  EXPECT_EQ(Annotation("p8", "enflame.com/gcu-device-id"), "0");
  const std::string other = first == "a" ? "b" : "a";

  // The other node fits the 12 GiB pod and wins kube-scheduler's own
  // scores (it has all its CPU and memory free), but the filter passes only
  // the used node; the other fails as unresolvable (it fits already,
  // preemption could not help).
  json pod = CreatePod(ScoredPod("p12", 12));
  json filtered = Filter(pod, {other, first});
  EXPECT_EQ(filtered["NodeNames"], json::array({first})) << filtered;
  EXPECT_TRUE(filtered["FailedAndUnresolvableNodes"].contains(other))
      << filtered;
  EXPECT_FALSE(filtered["FailedNodes"].contains(other)) << filtered;

  ScheduleOnce(config);
  EXPECT_EQ(GetPod("p12")["spec"]["nodeName"], first);
  EXPECT_EQ(Annotation("p12", "enflame.com/gcu-device-id"), "1");
  EXPECT_EQ(Inspect(other)["usedGCU"], 0);
}

// (b) node CPU over HTTP: two untouched nodes fit a GCU pod's card request
// alike, but plain pods (which the extender's pod informer does not store)
// use up most of one's CPU: the pod would leave that node too little CPU
// for the GCU pods seen so far, stranding its cards, so the filter keeps
// only the other node.
TEST_F(BinpackSchedulerTest, GcuPodAvoidsTheNodeWhoseCpuPlainPodsUsedUp) {
  for (const char* name : {"a", "b", "c"}) CreateNode(ScoredNode(name));
  // 22 of a's 32 CPUs, before the extender starts: its first list, which
  // completes before it reports synced, counts them.
  for (int i = 0; i < 11; ++i) {
    json plain = MemoryPod("plain-" + std::to_string(i), 0);
    plain["spec"]["containers"][0]["resources"] = {
        {"requests", {{"cpu", "2"}, {"memory", "1Gi"}}}};
    plain["spec"]["nodeName"] = "a";
    CreatePod(plain);
  }
  StartExtender();
  for (const char* name : {"a", "b", "c"}) WaitForNode(name);
  // A GCU pod bound to c teaches the request mix that GCU pods ask 8 CPUs.
  json warm = CreatePod(ScoredPod("warm", 4));
  ASSERT_EQ(Bind(warm, "c"), "");

  // a has 10 CPUs free: the pod fits there, but leaves 2.
  json pod = CreatePod(ScoredPod("p4", 4));
  json filtered = Filter(pod, {"a", "b"});
  EXPECT_EQ(filtered["NodeNames"], json::array({"b"})) << filtered;
  EXPECT_TRUE(filtered["FailedAndUnresolvableNodes"].contains("a")) << filtered;
}

// (a) plain pods: with the plain-pod entry (shipped by default; no
// managedResources, so kube-scheduler calls it for every pod), a plain pod
// goes to the node whose cards are all in use, where it strands no card
// memory, although kube-scheduler's own scores (LeastAllocated,
// BalancedAllocation) prefer the emptier node with free cards; without the
// entry (rankPlainPods: false) it goes there.
TEST_F(BinpackSchedulerTest, PlainPodGoesWhereItStrandsNoCardMemory) {
  CreateNode(ScoredNode("a"));
  CreateNode(ScoredNode("b"));
  StartExtender();
  WaitForNode("a");
  WaitForNode("b");
  // Fill a's two cards: 16 of its 32 CPUs are taken, none of its card memory
  // is free; the mix learns that GCU pods ask 8 CPUs.
  for (const char* name : {"g0", "g1"}) {
    json gcu = CreatePod(ScoredPod(name, 16));
    ASSERT_EQ(Bind(gcu, "a"), "");
  }
  json plain = MemoryPod("plain", 0);
  plain["spec"]["containers"][0]["resources"] = {
      {"requests", {{"cpu", "14"}, {"memory", "1Gi"}}}};
  json unranked = plain;
  unranked["metadata"]["name"] = "plain-unranked";

  // Without the plain-pod entry the extender never sees a plain pod:
  // kube-scheduler's scores send it to the emptier b.
  CreatePod(unranked);
  ScheduleOnce(WriteShippedConfig(/*plain_entry=*/false));
  EXPECT_EQ(GetPod("plain-unranked")["spec"]["nodeName"], "b");
  // It stays: b keeps 18 CPUs free against a's 16, so kube-scheduler's
  // own scores still prefer b below.

  // The shipped configuration's plain-pod entry (weight 25: one score level
  // outweighs the default plugins' 0..200) sends it to a.
  CreatePod(plain);
  ScheduleOnce(WriteShippedConfig());
  EXPECT_EQ(GetPod("plain")["spec"]["nodeName"], "a");
}

}  // namespace
}  // namespace gcushare
