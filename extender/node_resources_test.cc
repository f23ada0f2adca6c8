#include "extender/node_resources.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gcushare::extender {

using placement::HostRequest;

namespace {

nlohmann::json NodeObject(const std::string& name, const std::string& cpu,
                          const std::string& memory) {
  return {{"metadata", {{"name", name}}},
          {"status", {{"allocatable", {{"cpu", cpu}, {"memory", memory}}}}}};
}

nlohmann::json PodObject(const std::string& uid, const std::string& node,
                         const std::string& cpu, const std::string& memory) {
  return {{"metadata", {{"uid", uid}}},
          {"spec",
           {{"nodeName", node},
            {"containers",
             {{{"name", "app"},
               {"resources",
                {{"requests", {{"cpu", cpu}, {"memory", memory}}}}}}}}}}};
}

constexpr char kUid1[] = "0b6f6c2e-1a2b-4c3d-8e9f-001122334455";
constexpr char kUid2[] = "0b6f6c2e-1a2b-4c3d-8e9f-001122334466";

TEST(NodeResourcesTest, FreeIsAllocatableLessThePodsRequests) {
  NodeResources resources;
  EXPECT_FALSE(resources.Free("a").has_value());
  ASSERT_TRUE(resources.UpsertNode(NodeObject("a", "16", "64Gi")).ok());
  ASSERT_TRUE(resources.UpsertPod(PodObject(kUid1, "a", "1500m", "1Gi")).ok());
  ASSERT_TRUE(resources.UpsertPod(PodObject(kUid2, "a", "2", "1Gi")).ok());
  auto free = resources.Free("a");
  ASSERT_TRUE(free.has_value());
  EXPECT_EQ(free->cpu_milli, 12500);
  EXPECT_EQ(free->memory, int64_t{62} << 30);
  // An update replaces the pod's request; a finished pod frees it.
  ASSERT_TRUE(resources.UpsertPod(PodObject(kUid1, "a", "500m", "1Gi")).ok());
  EXPECT_EQ(resources.Free("a")->cpu_milli, 13500);
  nlohmann::json done = PodObject(kUid2, "a", "2", "1Gi");
  done["status"]["phase"] = "Succeeded";
  ASSERT_TRUE(resources.UpsertPod(done).ok());
  EXPECT_EQ(resources.Free("a")->cpu_milli, 15500);
  resources.RemovePod(kUid1);
  EXPECT_EQ(resources.Free("a")->cpu_milli, 16000);
  EXPECT_EQ(resources.pod_count(), 0u);
}

// A pod seen again on another node (updated in place) leaves the first.
TEST(NodeResourcesTest, PodSeenOnAnotherNodeMovesItsRequest) {
  NodeResources resources;
  ASSERT_TRUE(resources.UpsertNode(NodeObject("a", "16", "64Gi")).ok());
  ASSERT_TRUE(resources.UpsertNode(NodeObject("b", "8", "32Gi")).ok());
  ASSERT_TRUE(resources.UpsertPod(PodObject(kUid1, "a", "3", "2Gi")).ok());
  ASSERT_TRUE(resources.UpsertPod(PodObject(kUid1, "b", "1", "1Gi")).ok());
  EXPECT_EQ(resources.Free("a")->cpu_milli, 16000);
  EXPECT_EQ(resources.Free("a")->memory, int64_t{64} << 30);
  EXPECT_EQ(resources.Free("b")->cpu_milli, 7000);
  EXPECT_EQ(resources.Free("b")->memory, int64_t{31} << 30);
  EXPECT_EQ(resources.pod_count(), 1u);
  // Unbound again (no node): counted nowhere, forgotten.
  ASSERT_TRUE(resources.UpsertPod(PodObject(kUid1, "", "1", "1Gi")).ok());
  EXPECT_EQ(resources.Free("b")->cpu_milli, 8000);
  EXPECT_EQ(resources.pod_count(), 0u);
}

// FreeOf() answers for many names what Free() answers for each: unknown
// names and nodes known only from their pods have no figures.
TEST(NodeResourcesTest, FreeOfAgreesWithFreeForEveryName) {
  NodeResources resources;
  std::vector<std::string> names;
  for (int i = 0; i < 40; ++i) {
    names.push_back("node-" + std::to_string(i));
    if (i % 3 != 0) {
      ASSERT_TRUE(
          resources.UpsertNode(NodeObject(names.back(), "16", "64Gi")).ok());
    }
  }
  ASSERT_TRUE(resources.UpsertPod(PodObject(kUid1, "node-1", "3", "2Gi")).ok());
  ASSERT_TRUE(resources.UpsertPod(PodObject(kUid2, "node-3", "1", "1Gi")).ok());
  names.emplace_back("absent");
  names.emplace_back("node-1");
  const auto free = resources.FreeOf({names.begin(), names.end()});
  ASSERT_EQ(free.size(), names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    const auto one = resources.Free(names[i]);
    ASSERT_EQ(free[i].has_value(), one.has_value()) << names[i];
    if (one.has_value()) {
      EXPECT_EQ(free[i]->cpu_milli, one->cpu_milli) << names[i];
      EXPECT_EQ(free[i]->memory, one->memory) << names[i];
    }
  }
  EXPECT_EQ(free[1]->cpu_milli, 13000);
  EXPECT_FALSE(free[3].has_value());  // Known from its pod only.
  EXPECT_FALSE(free[40].has_value());
}

// FreeOf by index reads the same figures as by name; where the index is
// none (UINT32_MAX) or past the nodes known it looks the name up.
TEST(NodeResourcesTest, FreeOfByIndexAgreesWithFreeOfByName) {
  NodeResources resources;
  std::vector<std::string> names;
  std::vector<uint32_t> indices;
  for (int i = 0; i < 40; ++i) {
    names.push_back("node-" + std::to_string(i));
    indices.push_back(resources.IndexOf(names.back()));
    if (i % 3 != 0) {
      ASSERT_TRUE(
          resources.UpsertNode(NodeObject(names.back(), "16", "64Gi")).ok());
    }
  }
  // Stable: seen again, or through a node object, the same index.
  EXPECT_EQ(resources.IndexOf("node-7"), indices[7]);
  EXPECT_NE(indices[7], indices[8]);
  ASSERT_TRUE(resources.UpsertPod(PodObject(kUid1, "node-1", "3", "2Gi")).ok());
  ASSERT_TRUE(resources.UpsertPod(PodObject(kUid2, "node-2", "1", "1Gi")).ok());
  indices[2] = UINT32_MAX;  // By name.
  names.emplace_back("absent");
  indices.push_back(UINT32_MAX);
  names.emplace_back("node-5");
  indices.push_back(1000);  // Past the nodes: by name.
  const std::vector<std::string_view> views(names.begin(), names.end());
  const auto by_index = resources.FreeOf(views, indices);
  const auto by_name = resources.FreeOf(views);
  ASSERT_EQ(by_index.size(), names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    ASSERT_EQ(by_index[i].has_value(), by_name[i].has_value()) << names[i];
    if (by_name[i].has_value()) {
      EXPECT_EQ(by_index[i]->cpu_milli, by_name[i]->cpu_milli) << names[i];
      EXPECT_EQ(by_index[i]->memory, by_name[i]->memory) << names[i];
    }
  }
  EXPECT_EQ(by_index[1]->cpu_milli, 13000);
  EXPECT_EQ(by_index[2]->cpu_milli, 15000);
  EXPECT_FALSE(by_index[3].has_value());
  EXPECT_TRUE(by_index[41].has_value());
  // The index reads the node at it, whatever name is given beside it.
  const auto other = resources.FreeOf({"node-4"}, {indices[1]});
  EXPECT_EQ(other[0]->cpu_milli, 13000);
}

TEST(NodeResourcesTest, BadInputChangesNothing) {
  NodeResources resources;
  ASSERT_TRUE(resources.UpsertNode(NodeObject("a", "16", "64Gi")).ok());
  ASSERT_TRUE(resources.UpsertPod(PodObject(kUid1, "a", "1", "1Gi")).ok());
  Status bad = resources.UpsertPod(PodObject(kUid1, "a", "lots", "1Gi"));
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("container \"app\""), std::string::npos)
      << bad.message();
  EXPECT_FALSE(resources.UpsertPod(PodObject("not-a-uid", "a", "1", "1")).ok());
  EXPECT_FALSE(resources.UpsertNode(NodeObject("a", "x", "64Gi")).ok());
  EXPECT_EQ(resources.Free("a")->cpu_milli, 15000);
  EXPECT_EQ(resources.pod_count(), 1u);
}

// Quantities too large for any node ("10E" CPU is 1e22 millicores) are
// refused, never wrapped into negative requests that would free capacity;
// 2^50 (millicores or bytes) is the largest accepted.
TEST(NodeResourcesTest, HugeQuantitiesAreRefusedNotWrapped) {
  NodeResources resources;
  ASSERT_TRUE(resources.UpsertNode(NodeObject("a", "16", "64Gi")).ok());
  ASSERT_TRUE(resources.UpsertPod(PodObject(kUid1, "a", "1", "1Gi")).ok());
  struct Case {
    const char* cpu;
    const char* memory;
    bool ok;
  };
  for (const Case& c : std::initializer_list<Case>{
           // Past int64 milli-units too, where the quantity parser stops.
           {"9223372036854775807", "1", false},
           {"1", "99999999999999999999", false},
           {"10E", "1Gi", false},
           {"1", "10E", false},
           {"1", "18446744073709551615", false},
           {"1125899906842625m", "1Gi", false},  // 2^50 + 1 millicores.
           {"1", "1125899906842625", false},     // 2^50 + 1 bytes.
           {"1125899906842624m", "1Gi", true},   // 2^50 millicores.
           {"1", "1Pi", true},                   // 2^50 bytes.
       }) {
    SCOPED_TRACE(std::string(c.cpu) + " / " + c.memory);
    Status status = resources.UpsertPod(PodObject(kUid2, "a", c.cpu, c.memory));
    EXPECT_EQ(status.ok(), c.ok) << status;
    if (!c.ok) {
      EXPECT_NE(status.message().find("larger than any node"),
                std::string::npos)
          << status.message();
      EXPECT_EQ(resources.Free("a")->cpu_milli, 15000);
      EXPECT_EQ(resources.Free("a")->memory, int64_t{63} << 30);
    }
    resources.RemovePod(kUid2);
  }
  EXPECT_FALSE(resources.UpsertNode(NodeObject("b", "10E", "64Gi")).ok());
  EXPECT_FALSE(resources.Free("b").has_value());
}

// Quantities are counted as kube-scheduler counts them: CPU as
// Quantity.MilliValue() and memory as Quantity.Value(), both rounded up.
// The API server stores CPU 0.0001 as "100u": 1 millicore, not an
// unreadable pod left out of its node's sum.
TEST(NodeResourcesTest, FinerThanAUnitRoundsUpAsKubeSchedulerDoes) {
  const struct {
    const char* cpu;
    const char* memory;
    int64_t cpu_milli;
    int64_t bytes;
  } cases[] = {
      {"100u", "1500m", 1, 2},
      {"0.0001", "1.5", 1, 2},
      {"1n", "1n", 1, 1},
      {"1500m", "1000m", 1500, 1},
      {"1.0001", "0.1Gi", 1001, 107374183},  // 107374182.4 bytes.
      {"250m", "1Gi", 250, int64_t{1} << 30},
      {"0", "0", 0, 0},
      {"-0", "-0.0", 0, 0},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.cpu) + " / " + c.memory);
    NodeResources resources;
    ASSERT_TRUE(resources.UpsertNode(NodeObject("a", "16", "64Gi")).ok());
    Status status = resources.UpsertPod(PodObject(kUid1, "a", c.cpu, c.memory));
    ASSERT_TRUE(status.ok()) << status;
    EXPECT_EQ(resources.Free("a")->cpu_milli, 16000 - c.cpu_milli);
    EXPECT_EQ(resources.Free("a")->memory, (int64_t{64} << 30) - c.bytes);
    auto request = PodHostRequest(PodObject(kUid1, "a", c.cpu, c.memory));
    ASSERT_TRUE(request.ok()) << request.status();
    EXPECT_EQ(request->cpu_milli, c.cpu_milli);
    EXPECT_EQ(request->memory, c.bytes);
  }
  // A node's allocatable is read the same way.
  NodeResources resources;
  ASSERT_TRUE(resources.UpsertNode(NodeObject("a", "1500u", "1500m")).ok());
  EXPECT_EQ(resources.Free("a")->cpu_milli, 2);
  EXPECT_EQ(resources.Free("a")->memory, 2);
}

// Errors quote the quantity as the user wrote it (never a rewritten text
// such as "...e3").
TEST(NodeResourcesTest, ErrorsQuoteTheUsersText) {
  const struct {
    const char* cpu;
    const char* memory;
    const char* quoted;
    const char* why;
  } cases[] = {
      {"9223372036854775807", "1", "\"9223372036854775807\"",
       "larger than any node"},
      {"1.5x", "1", "\"1.5x\"", "unknown suffix"},
      {"-2", "1", "\"-2\"", "negative"},
      {"2", "-1500m", "\"-1500m\"", "negative"},
      {"1e2147483648", "1", "\"1e2147483648\"", "exponent out of range"},
      {"1", "10E", "\"10E\"", "larger than any node"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.cpu) + " / " + c.memory);
    auto request = PodHostRequest(PodObject(kUid1, "a", c.cpu, c.memory));
    ASSERT_FALSE(request.ok());
    const std::string& message = request.status().message();
    EXPECT_EQ(request.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(message.find(std::string("quantity ") + c.quoted),
              std::string::npos)
        << message;
    EXPECT_NE(message.find(c.why), std::string::npos) << message;
    EXPECT_EQ(message.find("e3"), std::string::npos) << message;
  }
}

// A request computed beforehand (PodFeed's one walk of the containers) is
// counted as given; its error changes nothing, as a bad spec does.
TEST(NodeResourcesTest, CountsARequestComputedBeforehand) {
  NodeResources resources;
  ASSERT_TRUE(resources.UpsertNode(NodeObject("a", "16", "64Gi")).ok());
  const nlohmann::json pod = PodObject(kUid1, "a", "1", "1Gi");
  ASSERT_TRUE(resources.UpsertPod(pod, PodHostRequest(pod)).ok());
  EXPECT_EQ(resources.Free("a")->cpu_milli, 15000);
  // The given figures, not the pod's own: nothing is computed again.
  ASSERT_TRUE(resources.UpsertPod(pod, HostRequest{3000, 5}).ok());
  EXPECT_EQ(resources.Free("a")->cpu_milli, 13000);
  EXPECT_EQ(resources.Free("a")->memory, (int64_t{64} << 30) - 5);
  Status bad = resources.UpsertUnstoredPod(
      pod, StatusOr<HostRequest>(InvalidArgumentError("unreadable")));
  EXPECT_EQ(bad.message(), "unreadable");
  EXPECT_EQ(resources.Free("a")->cpu_milli, 13000);
  // An unreadable uid is reported first, as by UpsertPod(pod).
  EXPECT_NE(resources
                .UpsertUnstoredPod(
                    PodObject("x", "a", "1", "1"),
                    StatusOr<HostRequest>(InvalidArgumentError("unreadable")))
                .message()
                .find("is not a UUID"),
            std::string::npos);
  // Counted unstored: swept by a relist that does not see it again.
  ASSERT_TRUE(resources.UpsertUnstoredPod(pod, HostRequest{2000, 0}).ok());
  resources.BeginSweep();
  resources.EndSweep();
  EXPECT_EQ(resources.Free("a")->cpu_milli, 16000);
  EXPECT_EQ(resources.pod_count(), 0u);
}

TEST(NodeResourcesTest, PodRequestCountsInitContainersAndSidecars) {
  nlohmann::json pod = PodObject(kUid1, "a", "1", "1Gi");
  pod["spec"]["initContainers"] = {
      {{"name", "side"},
       {"restartPolicy", "Always"},
       {"resources", {{"limits", {{"cpu", "500m"}}}}}},
      {{"name", "setup"}, {"resources", {{"requests", {{"cpu", "4"}}}}}}};
  auto request = PodHostRequest(pod);
  ASSERT_TRUE(request.ok()) << request.status();
  EXPECT_EQ(request->cpu_milli, 4500);  // The init peak: setup + sidecar.
  EXPECT_EQ(request->memory, int64_t{1} << 30);
}

}  // namespace
}  // namespace gcushare::extender
