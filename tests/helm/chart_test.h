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

}  // namespace gcushare::testing

#endif  // GCUSHARE_TESTS_HELM_CHART_TEST_H_
