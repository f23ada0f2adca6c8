#include "device-plugin/pod_locator.h"

#include <gtest/gtest.h>

#include "contract/annotations.h"
#include "contract/names.h"

namespace gcushare::deviceplugin {
namespace {

struct PodSpec {
  std::string name;
  std::vector<std::pair<std::string, uint64_t>> containers = {{"main", 4}};
  std::vector<std::pair<std::string, uint64_t>> init_containers;
  uint32_t card = 0;
  int64_t time = 100;
  bool assigned = false;
  bool annotated = true;
  std::string node = "n1";
  std::string phase = "Pending";
  bool per_container = true;
};

nlohmann::json Container(const std::string& name, uint64_t units) {
  nlohmann::json c = {{"name", name}, {"image", "x"}};
  if (units > 0) {
    c["resources"]["limits"][std::string(contract::kResourceMemory)] =
        std::to_string(units);
  }
  return c;
}

PodPtr Pod(const PodSpec& s) {
  nlohmann::json pod = {
      {"metadata",
       {{"namespace", "default"}, {"name", s.name}, {"uid", "uid-" + s.name}}},
      {"spec", {{"nodeName", s.node}, {"containers", nlohmann::json::array()}}},
      {"status", {{"phase", s.phase}}}};
  contract::CardAssignment a;
  a.cards = {s.card};
  a.assign_time_ns = s.time;
  a.assigned = s.assigned;
  for (const auto& [name, units] : s.init_containers) {
    pod["spec"]["initContainers"].push_back(Container(name, units));
    if (units > 0 && s.per_container) a.container_cards[name] = {s.card};
  }
  for (const auto& [name, units] : s.containers) {
    pod["spec"]["containers"].push_back(Container(name, units));
    if (units > 0 && s.per_container) a.container_cards[name] = {s.card};
  }
  if (s.annotated) {
    for (const auto& [k, v] : contract::EncodeAssignment(a)) {
      pod["metadata"]["annotations"][k] = v;
    }
  }
  return std::make_shared<const nlohmann::json>(pod);
}

struct Case {
  std::string label;
  std::vector<PodSpec> pods;
  uint64_t units;
  HandedOut handed_out;
  std::string want_pod;  // Empty: no match expected.
  std::string want_container;
  bool want_last = true;
  std::string want_in_error;
};

class LocatePodTest : public ::testing::TestWithParam<Case> {};

TEST_P(LocatePodTest, Table) {
  const Case& c = GetParam();
  std::vector<PodPtr> pods;
  for (const PodSpec& s : c.pods) pods.push_back(Pod(s));
  auto match = LocatePod(pods, LocateQuery{"n1", c.units}, c.handed_out);
  if (c.want_pod.empty()) {
    ASSERT_FALSE(match.ok());
    EXPECT_EQ(match.status().code(), StatusCode::kNotFound);
    EXPECT_NE(match.status().message().find(c.want_in_error), std::string::npos)
        << match.status().message();
    return;
  }
  ASSERT_TRUE(match.ok()) << match.status();
  EXPECT_EQ(match->name, c.want_pod);
  EXPECT_EQ(match->namespace_name, "default");
  EXPECT_EQ(match->uid, "uid-" + c.want_pod);
  EXPECT_EQ(match->container.name, c.want_container);
  EXPECT_EQ(match->last_container, c.want_last);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, LocatePodTest,
    ::testing::Values(
        Case{"one", {{.name = "a"}}, 4, {}, "a", "main"},
        Case{"earliest assign time wins",
             {{.name = "late", .time = 300},
              {.name = "early", .time = 100},
              {.name = "mid", .time = 200}},
             4,
             {},
             "early",
             "main"},
        Case{"same time: by name",
             {{.name = "b"}, {.name = "a"}},
             4,
             {},
             "a",
             "main"},
        Case{"request must equal the IDs",
             {{.name = "two", .containers = {{"main", 2}}, .time = 1},
              {.name = "four", .time = 9}},
             4,
             {},
             "four",
             "main"},
        Case{"assigned, other node, running and unannotated pods are out",
             {{.name = "done", .time = 1, .assigned = true},
              {.name = "elsewhere", .time = 1, .node = "n2"},
              {.name = "running", .time = 1, .phase = "Running"},
              {.name = "bare", .time = 1, .annotated = false},
              {.name = "ok", .time = 50}},
             4,
             {},
             "ok",
             "main"},
        Case{"handed-out pods are out",
             {{.name = "a", .time = 1}, {.name = "b", .time = 2}},
             4,
             {{"uid-a", {"main"}}},
             "b",
             "main"},
        Case{"multi-container: first container first",
             {{.name = "m", .containers = {{"main", 4}, {"side", 2}}}},
             4,
             {},
             "m",
             "main",
             false},
        Case{"multi-container: then the second, which is the last",
             {{.name = "m", .containers = {{"main", 4}, {"side", 2}}}},
             2,
             {{"uid-m", {"main"}}},
             "m",
             "side",
             true},
        Case{"multi-container: a later container when asked for its size",
             {{.name = "m", .containers = {{"main", 4}, {"side", 2}}}},
             2,
             {},
             "m",
             "side",
             false},
        Case{"multi-container: no container of that size",
             {{.name = "m", .containers = {{"main", 4}, {"side", 2}}}},
             3,
             {},
             "",
             "",
             true,
             "container main requests 4"},
        Case{"init containers come first",
             {{.name = "i",
               .containers = {{"main", 4}},
               .init_containers = {{"setup", 1}}}},
             1,
             {},
             "i",
             "setup",
             false},
        Case{"containers without gcu-memory are skipped",
             {{.name = "s", .containers = {{"log", 0}, {"main", 4}}}},
             4,
             {},
             "s",
             "main"},
        Case{"older writers: gcu-device-id for every container",
             {{.name = "old", .per_container = false}},
             4,
             {},
             "old",
             "main"},
        Case{"no pod: says which were considered and why",
             {{.name = "done", .assigned = true},
              {.name = "small", .containers = {{"main", 2}}},
              {.name = "running", .phase = "Running"}},
             4,
             {},
             "",
             "",
             true,
             "considered 3 pod(s): default/done "
             "(enflame.com/gcu-device-assigned=true), default/small "
             "(container main requests 2), default/running (phase Running)"},
        Case{"no pod at all",
             {},
             4,
             {},
             "",
             "",
             true,
             "no pod on this node asks for enflame.com/gcu-memory"}),
    [](const ::testing::TestParamInfo<Case>& info) {
      std::string name;
      for (char ch : info.param.label) {
        name += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
      }
      return name;
    });

TEST(LocatePodErrorTest, NamesAtMostEightPods) {
  std::vector<PodPtr> pods;
  pods.reserve(12);
  for (int i = 0; i < 12; ++i) {
    pods.push_back(Pod({.name = "p" + std::to_string(i), .assigned = true}));
  }
  auto match = LocatePod(pods, LocateQuery{"n1", 4}, {});
  ASSERT_FALSE(match.ok());
  EXPECT_NE(match.status().message().find("and 4 more"), std::string::npos);
  EXPECT_NE(match.status().message().find("considered 12 pod(s)"),
            std::string::npos);
}

TEST(LocatePodErrorTest, BadAnnotationIsReportedNotFatal) {
  nlohmann::json bad = *Pod({.name = "bad", .time = 1});
  bad["metadata"]["annotations"][std::string(contract::kPodAssigned)] = "maybe";
  std::vector<PodPtr> pods = {std::make_shared<const nlohmann::json>(bad),
                              Pod({.name = "good", .time = 5})};
  auto match = LocatePod(pods, LocateQuery{"n1", 4}, {});
  ASSERT_TRUE(match.ok());
  EXPECT_EQ(match->name, "good");
  pods.pop_back();
  match = LocatePod(pods, LocateQuery{"n1", 4}, {});
  ASSERT_FALSE(match.ok());
  EXPECT_NE(match.status().message().find("bad annotation"), std::string::npos);
}

}  // namespace
}  // namespace gcushare::deviceplugin
