// A gtest fixture for one chart: fails each test at once when helm is not
// installed, and renders the chart with extra `helm template` arguments.
#ifndef GCUSHARE_TESTS_HELM_CHART_TEST_H_
#define GCUSHARE_TESTS_HELM_CHART_TEST_H_

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <string>
#include <utility>
#include <vector>

#include "tests/helm/helm_runner.h"

namespace gcushare::testing {

class ChartTest : public ::testing::Test {
 protected:
  explicit ChartTest(std::string chart) : chart_(std::move(chart)) {}

  void SetUp() override {
    ASSERT_FALSE(HelmPath().empty()) << HelmMissingMessage();
  }

  // The rendered objects; an empty list (and a test failure) on error.
  std::vector<YAML::Node> Render(const std::vector<std::string>& args = {}) {
    auto objects = RenderChart(chart_, args);
    EXPECT_TRUE(objects.ok()) << objects.status().ToString();
    return objects.ok() ? *objects : std::vector<YAML::Node>{};
  }

 private:
  const std::string chart_;
};

// The restrictive securityContext every GCUShare container but the
// (privileged) device plugin runs with: no privilege escalation, a
// read-only root filesystem, every capability dropped, seccomp
// RuntimeDefault.
inline void ExpectRestricted(const YAML::Node& container) {
  const YAML::Node sc = container["securityContext"];
  ASSERT_TRUE(sc.IsMap()) << container["name"].as<std::string>("");
  EXPECT_FALSE(sc["allowPrivilegeEscalation"].as<bool>(true));
  EXPECT_TRUE(sc["readOnlyRootFilesystem"].as<bool>(false));
  ASSERT_EQ(sc["capabilities"]["drop"].size(), 1u);
  EXPECT_EQ(sc["capabilities"]["drop"][0].as<std::string>(""), "ALL");
  EXPECT_FALSE(sc["capabilities"]["add"].IsDefined());
  EXPECT_FALSE(sc["privileged"].as<bool>(false));
  EXPECT_EQ(sc["seccompProfile"]["type"].as<std::string>(""), "RuntimeDefault");
}

}  // namespace gcushare::testing

#endif  // GCUSHARE_TESTS_HELM_CHART_TEST_H_
