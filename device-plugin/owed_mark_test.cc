#include "device-plugin/owed_mark.h"

#include <gtest/gtest.h>

#include <functional>

#include "contract/annotations.h"
#include "contract/names.h"

namespace gcushare::deviceplugin {
namespace {

// A pod of node n1 with the extender's assignment, unmarked, asking for 4
// units of gcu-memory, Pending with no container started: edit from there.
nlohmann::json BasePod() {
  contract::CardAssignment a;
  a.cards = {2};
  a.card_memory_units = 16;
  a.request_units = 4;
  a.assign_time_ns = 100;
  a.assigned = false;
  a.container_cards["main"] = {2};
  nlohmann::json pod = {
      {"metadata",
       {{"namespace", "team"},
        {"name", "p"},
        {"uid", "uid-p"},
        {"annotations", nlohmann::json::object()}}},
      {"spec",
       {{"nodeName", "n1"},
        {"containers",
         {{{"name", "main"},
           {"resources",
            {{"limits", {{std::string(contract::kResourceMemory), "4"}}}}}}}}}},
      {"status", {{"phase", "Pending"}}}};
  for (const auto& [k, v] : contract::EncodeAssignment(a)) {
    pod["metadata"]["annotations"][k] = v;
  }
  return pod;
}

nlohmann::json Status(const std::string& state) {
  return {{"name", "main"}, {"state", {{state, nlohmann::json::object()}}}};
}

struct Case {
  std::string label;
  std::function<void(nlohmann::json&)> edit;
  bool owed;
};

TEST(OwedMarkTest, Table) {
  const std::string assigned(contract::kPodAssigned);
  const Case cases[] = {
      {"pending, nothing started (maybe not allocated yet)", [](auto&) {},
       false},
      {"pending, container waiting (image pull)",
       [](auto& p) { p["status"]["containerStatuses"] = {Status("waiting")}; },
       false},
      {"pending, init container running",
       [](auto& p) {
         p["status"]["initContainerStatuses"] = {Status("running")};
       },
       true},
      {"pending, init container terminated",
       [](auto& p) {
         p["status"]["initContainerStatuses"] = {Status("terminated")};
       },
       true},
      {"container running",
       [](auto& p) { p["status"]["containerStatuses"] = {Status("running")}; },
       true},
      {"waiting after a crash (lastState terminated)",
       [](auto& p) {
         nlohmann::json s = Status("waiting");
         s["lastState"]["terminated"] = {{"exitCode", 1}};
         p["status"]["containerStatuses"] = {s};
       },
       true},
      {"started=true",
       [](auto& p) {
         p["status"]["containerStatuses"] = {
             {{"name", "main"}, {"started", true}}};
       },
       true},
      {"phase Running", [](auto& p) { p["status"]["phase"] = "Running"; },
       true},
      {"phase Succeeded", [](auto& p) { p["status"]["phase"] = "Succeeded"; },
       true},
      {"phase Failed at admission, nothing started",
       [](auto& p) { p["status"]["phase"] = "Failed"; }, false},
      {"running, already marked",
       [&](auto& p) {
         p["status"]["phase"] = "Running";
         p["metadata"]["annotations"][assigned] = "true";
       },
       false},
      {"running, another node",
       [](auto& p) {
         p["status"]["phase"] = "Running";
         p["spec"]["nodeName"] = "n2";
       },
       false},
      {"running, being deleted",
       [](auto& p) {
         p["status"]["phase"] = "Running";
         p["metadata"]["deletionTimestamp"] = "2026-01-01T00:00:00Z";
       },
       false},
      {"running, not assigned by the extender",
       [](auto& p) {
         p["status"]["phase"] = "Running";
         p["metadata"]["annotations"] = nlohmann::json::object();
       },
       false},
      {"running, no annotations",
       [](auto& p) {
         p["status"]["phase"] = "Running";
         p["metadata"].erase("annotations");
       },
       false},
      {"running, malformed assignment",
       [](auto& p) {
         p["status"]["phase"] = "Running";
         p["metadata"]["annotations"][std::string(contract::kPodDeviceId)] =
             "x";
       },
       false},
      {"running, whole cards only (the NRI plugin's mark)",
       [](auto& p) {
         p["status"]["phase"] = "Running";
         p["spec"]["containers"][0]["resources"]["limits"] = {
             {std::string(contract::kResourceCount), "1"}};
       },
       false},
      {"running, malformed quantity",
       [](auto& p) {
         p["status"]["phase"] = "Running";
         p["spec"]["containers"][0]["resources"]["limits"] = {
             {std::string(contract::kResourceMemory), "1e2147483648"}};
       },
       false},
      {"statuses of the wrong shape",
       [](auto& p) {
         p["status"]["containerStatuses"] = {1, "running", nullptr};
         p["status"]["initContainerStatuses"] = "running";
       },
       false},
  };
  for (const Case& c : cases) {
    nlohmann::json pod = BasePod();
    c.edit(pod);
    std::optional<OwedMark> got = FindOwedMark(pod, "n1");
    EXPECT_EQ(got.has_value(), c.owed) << c.label;
    if (got.has_value()) {
      EXPECT_EQ(*got, (OwedMark{"team", "p", "uid-p"})) << c.label;
    }
  }
}

TEST(OwedMarkTest, NotAPod) {
  for (const nlohmann::json& pod :
       {nlohmann::json(), nlohmann::json::array(), nlohmann::json(3),
        nlohmann::json{{"metadata", 1}, {"spec", "x"}, {"status", 2}}}) {
    EXPECT_FALSE(FindOwedMark(pod, "n1").has_value()) << pod.dump();
    EXPECT_FALSE(PodStarted(pod)) << pod.dump();
  }
}

}  // namespace
}  // namespace gcushare::deviceplugin
