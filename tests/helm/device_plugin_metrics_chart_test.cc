// The gcushare-device-plugin chart's metrics values, rendered by the real
// helm 3.17: off by default; when enabled, --metrics-port, a named port
// and scrape annotations on both DaemonSets; a ServiceMonitor (with the
// headless Services it selects) only when asked; bad values rejected.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/helm/chart_test.h"
#include "tests/helm/helm_runner.h"

namespace gcushare::testing {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

constexpr char kChart[] = "gcushare-device-plugin";

class DevicePluginMetricsChartTest : public ChartTest {
 protected:
  DevicePluginMetricsChartTest() : ChartTest(kChart) {}
};

bool AnyArgStartsWith(const YAML::Node& container, const std::string& prefix) {
  for (const std::string& arg : Strings(container["args"])) {
    if (arg.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

struct Agent {
  const char* daemonset;
  const char* container;
  const char* port;
};
constexpr Agent kAgents[] = {
    {"gcushare-device-plugin", "device-plugin", "9401"},
    {"gcushare-nri-plugin", "nri-plugin", "9402"},
};

TEST_F(DevicePluginMetricsChartTest, OffByDefault) {
  auto objects = Render();
  for (const Agent& agent : kAgents) {
    YAML::Node ds = FindObject(objects, "DaemonSet", agent.daemonset);
    ASSERT_TRUE(ds.IsMap()) << agent.daemonset;
    YAML::Node c = FindContainer(ds, agent.container);
    EXPECT_FALSE(AnyArgStartsWith(c, "--metrics-port")) << agent.daemonset;
    EXPECT_FALSE(c["ports"].IsDefined()) << agent.daemonset;
    EXPECT_FALSE(ds["spec"]["template"]["metadata"]["annotations"]
                   ["prometheus.io/scrape"]
                       .IsDefined())
        << agent.daemonset;
  }
  EXPECT_THAT(ObjectsOfKind(objects, "ServiceMonitor"), IsEmpty());
  EXPECT_THAT(ObjectsOfKind(objects, "Service"), IsEmpty());
}

TEST_F(DevicePluginMetricsChartTest, EnabledPortsFlagsAndScrapeAnnotations) {
  auto objects = Render({"--set", "metrics.enabled=true"});
  for (const Agent& agent : kAgents) {
    YAML::Node ds = FindObject(objects, "DaemonSet", agent.daemonset);
    ASSERT_TRUE(ds.IsMap()) << agent.daemonset;
    YAML::Node c = FindContainer(ds, agent.container);
    EXPECT_THAT(Strings(c["args"]),
                Contains(std::string("--metrics-port=") + agent.port));
    ASSERT_EQ(c["ports"].size(), 1u) << agent.daemonset;
    EXPECT_EQ(c["ports"][0]["name"].as<std::string>(""), "metrics");
    EXPECT_EQ(c["ports"][0]["containerPort"].as<std::string>(""), agent.port);
    YAML::Node annotations = ds["spec"]["template"]["metadata"]["annotations"];
    EXPECT_EQ(annotations["prometheus.io/scrape"].as<std::string>(""), "true");
    EXPECT_EQ(annotations["prometheus.io/port"].as<std::string>(""),
              agent.port);
    EXPECT_EQ(annotations["prometheus.io/path"].as<std::string>(""),
              "/metrics");
  }
  // No ServiceMonitor unless asked (its CRD may not be installed).
  EXPECT_THAT(ObjectsOfKind(objects, "ServiceMonitor"), IsEmpty());

  auto quiet = Render({"--set", "metrics.enabled=true", "--set",
                       "metrics.podAnnotations=false", "--set",
                       "metrics.devicePluginPort=9500"});
  YAML::Node ds = FindObject(quiet, "DaemonSet", "gcushare-device-plugin");
  EXPECT_FALSE(ds["spec"]["template"]["metadata"]["annotations"].IsDefined());
  EXPECT_THAT(Strings(FindContainer(ds, "device-plugin")["args"]),
              Contains("--metrics-port=9500"));
}

TEST_F(DevicePluginMetricsChartTest, ServiceMonitorWhenAsked) {
  auto objects = Render({"--set", "metrics.enabled=true", "--set",
                         "metrics.serviceMonitor.enabled=true", "--set",
                         "metrics.serviceMonitor.labels.release=prom"});
  auto monitors = ObjectsOfKind(objects, "ServiceMonitor");
  ASSERT_EQ(monitors.size(), 1u);
  const YAML::Node& sm = monitors[0];
  EXPECT_EQ(sm["apiVersion"].as<std::string>(""), "monitoring.coreos.com/v1");
  EXPECT_EQ(sm["metadata"]["labels"]["release"].as<std::string>(""), "prom");
  ASSERT_EQ(sm["spec"]["endpoints"].size(), 1u);
  EXPECT_EQ(sm["spec"]["endpoints"][0]["port"].as<std::string>(""), "metrics");
  EXPECT_EQ(sm["spec"]["endpoints"][0]["path"].as<std::string>(""), "/metrics");
  // The ServiceMonitor selects one headless Service per DaemonSet, and each
  // selects its DaemonSet's pods on their named port.
  auto services = ObjectsOfKind(objects, "Service");
  ASSERT_EQ(services.size(), 2u);
  for (const YAML::Node& svc : services) {
    for (const auto& kv : sm["spec"]["selector"]["matchLabels"]) {
      EXPECT_EQ(
          svc["metadata"]["labels"][kv.first.as<std::string>()].as<std::string>(
              ""),
          kv.second.as<std::string>())
          << svc["metadata"]["name"];
    }
    EXPECT_EQ(svc["spec"]["clusterIP"].as<std::string>(""), "None");
    EXPECT_EQ(svc["spec"]["ports"][0]["targetPort"].as<std::string>(""),
              "metrics");
    const std::string app =
        svc["spec"]["selector"]["app.kubernetes.io/name"].as<std::string>("");
    YAML::Node ds = FindObject(objects, "DaemonSet", app);
    ASSERT_TRUE(ds.IsMap()) << app;
    for (const auto& kv : svc["spec"]["selector"]) {
      EXPECT_EQ(ds["spec"]["template"]["metadata"]["labels"]
                  [kv.first.as<std::string>()]
                      .as<std::string>(""),
                kv.second.as<std::string>())
          << app;
    }
  }

  // Without the NRI plugin, only the device plugin's Service.
  auto no_nri = Render({"--set", "metrics.enabled=true", "--set",
                        "metrics.serviceMonitor.enabled=true", "--set",
                        "nriPlugin.enabled=false"});
  auto left = ObjectsOfKind(no_nri, "Service");
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0]["metadata"]["name"].as<std::string>(""),
            "gcushare-device-plugin-metrics");
  // And serviceMonitor alone (metrics off) renders nothing.
  auto off = Render({"--set", "metrics.serviceMonitor.enabled=true"});
  EXPECT_THAT(ObjectsOfKind(off, "ServiceMonitor"), IsEmpty());
}

TEST_F(DevicePluginMetricsChartTest, SchemaRejectsBadMetricsValues) {
  const std::vector<std::vector<std::string>> cases = {
      {"--set", "metrics.devicePluginPort=0"},
      {"--set", "metrics.nriPluginPort=70000"},
      {"--set", "metrics.enabled=yes"},
      {"--set", "metrics.serviceMonitor.interval=soon"},
  };
  for (const auto& args : cases) {
    std::vector<std::string> argv = {"template", "gcushare", ChartPath(kChart)};
    argv.insert(argv.end(), args.begin(), args.end());
    auto result = RunHelm(argv);
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    EXPECT_NE(result->exit_code, 0) << args.back();
    EXPECT_THAT(result->err, HasSubstr("metrics")) << args.back();
    EXPECT_THAT(result->out, IsEmpty()) << args.back();
  }
}

}  // namespace
}  // namespace gcushare::testing
