#include "tests/peers/scheduler/scheduler_config.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "testing/subprocess.h"

namespace gcushare::scheduler {
namespace {

using std::chrono::milliseconds;
using std::chrono::nanoseconds;
using std::chrono::seconds;

TEST(SchedulerConfigTest, LoadsTheExample) {
  auto config =
      LoadSchedulerConfig(testing::RunfilePath("tests/peers/scheduler/testdata/"
                                               "scheduler-config.yaml"));
  ASSERT_TRUE(config.ok()) << config.status();
  ASSERT_EQ(config->profile_names.size(), 1u);
  EXPECT_EQ(config->profile_names[0], "default-scheduler");
  ASSERT_EQ(config->extenders.size(), 1u);
  const ExtenderConfig& e = config->extenders[0];
  EXPECT_EQ(e.url_prefix, "http://127.0.0.1:32766/gcushare-scheduler");
  EXPECT_EQ(e.filter_verb, "filter");
  EXPECT_EQ(e.prioritize_verb, "prioritize");
  EXPECT_EQ(e.bind_verb, "bind");
  EXPECT_EQ(e.weight, 1);
  EXPECT_TRUE(e.node_cache_capable);
  EXPECT_FALSE(e.ignorable);
  EXPECT_EQ(e.http_timeout, seconds(5));
  ASSERT_EQ(e.managed_resources.size(), 2u);
  EXPECT_EQ(e.managed_resources[1].name, "enflame.com/gcu-count");
  EXPECT_FALSE(e.managed_resources[1].ignored_by_scheduler);
}

TEST(SchedulerConfigTest, LoadsTheCapturedConfiguration) {
  auto config = LoadSchedulerConfig(testing::RunfilePath(
      "tests/conformance/extender-ncc-false.scheduler-config.yaml"));
  ASSERT_TRUE(config.ok()) << config.status();
  ASSERT_EQ(config->profile_names.size(), 1u);
  EXPECT_EQ(config->profile_names[0], "gcu-extender-scheduler");
  const ExtenderConfig& e = config->extenders.at(0);
  EXPECT_FALSE(e.node_cache_capable);
  EXPECT_TRUE(e.bind_verb.empty());
  EXPECT_EQ(e.http_timeout, seconds(5));  // Unset: the default.
  EXPECT_TRUE(e.IgnoresInScheduler("enflame.com/gcu-memory"));
  EXPECT_FALSE(e.IgnoresInScheduler("enflame.com/gcu-count"));
}

constexpr char kHeader[] =
    "apiVersion: kubescheduler.config.k8s.io/v1\n"
    "kind: KubeSchedulerConfiguration\n";

std::string ErrorOf(const std::string& body) {
  auto config = ParseSchedulerConfig(std::string(kHeader) + body, "c.yaml");
  return config.ok() ? "" : std::string(config.status().message());
}

TEST(SchedulerConfigTest, RejectsWhatKubeSchedulerRejects) {
  EXPECT_EQ(ErrorOf("extenders:\n- urlPrefix: http://a\n  fitlerVerb: f\n"),
            "c.yaml: strict decoding error: unknown field "
            "\"extenders[0].fitlerVerb\"");
  EXPECT_EQ(ErrorOf("extenders:\n- urlPrefix: http://a\n"
                    "  prioritizeVerb: p\n"),
            "c.yaml: extenders[0].weight: Invalid value: 0: must have a "
            "positive weight applied to it");
  EXPECT_NE(ErrorOf("extenders:\n- urlPrefix: http://a\n  bindVerb: b\n"
                    "- urlPrefix: http://b\n  bindVerb: b\n")
                .find("only one extender can implement bind"),
            std::string::npos);
  EXPECT_NE(ErrorOf("extenders:\n- urlPrefix: http://a\n  managedResources:\n"
                    "  - name: example.com/x\n  - name: example.com/x\n")
                .find("duplicate extender managed resource name"),
            std::string::npos);
  EXPECT_NE(ErrorOf("extenders:\n- urlPrefix: http://a\n  managedResources:\n"
                    "  - name: cpu\n")
                .find("invalid extended resource name"),
            std::string::npos);
  EXPECT_NE(ErrorOf("extenders:\n- urlPrefix: https://a\n  enableHTTPS: true\n")
                .find("enableHTTPS"),
            std::string::npos);
  EXPECT_NE(ErrorOf("extenders:\n- urlPrefix: http://a\n  httpTimeout: 5\n")
                .find("missing unit"),
            std::string::npos);
  EXPECT_NE(ErrorOf("bogus: 1\n").find("unknown field \"bogus\""),
            std::string::npos);
  auto wrong = ParseSchedulerConfig(
      "apiVersion: kubescheduler.config.k8s.io/v1beta3\n"
      "kind: KubeSchedulerConfiguration\n",
      "c.yaml");
  EXPECT_FALSE(wrong.ok());
  EXPECT_FALSE(ParseSchedulerConfig("a: [", "c.yaml").ok());
}

TEST(SchedulerConfigTest, InterestFollowsManagedResources) {
  ExtenderConfig config;
  const nlohmann::json plain = {{"spec", {{"containers", {{{"name", "c"}}}}}}};
  const nlohmann::json gcu = {
      {"spec",
       {{"initContainers",
         {{{"name", "i"},
           {"resources", {{"limits", {{"enflame.com/gcu-memory", "4"}}}}}}}}}}};
  EXPECT_TRUE(config.IsInterested(plain));  // Nothing managed: every pod.
  config.managed_resources.push_back({"enflame.com/gcu-memory", false});
  EXPECT_FALSE(config.IsInterested(plain));
  EXPECT_TRUE(config.IsInterested(gcu));
}

TEST(GoDurationTest, ParsesGoSyntax) {
  EXPECT_EQ(*ParseGoDuration("5s"), seconds(5));
  EXPECT_EQ(*ParseGoDuration("1m30s"), seconds(90));
  EXPECT_EQ(*ParseGoDuration("250ms"), milliseconds(250));
  EXPECT_EQ(*ParseGoDuration("1.5h"), seconds(5400));
  EXPECT_EQ(*ParseGoDuration("0"), nanoseconds(0));
  EXPECT_EQ(*ParseGoDuration("-2us"), nanoseconds(-2000));
  EXPECT_FALSE(ParseGoDuration("").ok());
  EXPECT_FALSE(ParseGoDuration("5").ok());
  EXPECT_FALSE(ParseGoDuration("5 s").ok());
  EXPECT_FALSE(ParseGoDuration("1.2.3s").ok());
  EXPECT_FALSE(ParseGoDuration("3d").ok());
}

}  // namespace
}  // namespace gcushare::scheduler
