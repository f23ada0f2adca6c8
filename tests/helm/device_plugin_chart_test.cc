// The gcushare-device-plugin chart, rendered by the real helm 3.17: lint,
// default and non-default values, the docs/contracts.md contract (sharing-node
// label, NODE_NAME, host paths, log dir, memory unit) and least-privilege
// RBAC; values.schema.json rejects a bad memoryUnit.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "device-plugin/api_permissions.h"
#include "nri-plugin/api_permissions.h"
#include "testing/files.h"
#include "tests/helm/chart_test.h"
#include "tests/helm/helm_runner.h"
#include "tests/helm/rbac.h"

namespace gcushare::testing {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

constexpr char kChart[] = "gcushare-device-plugin";

class DevicePluginChartTest : public ChartTest {
 protected:
  DevicePluginChartTest() : ChartTest(kChart) {}
};

std::string EnvFieldPath(const YAML::Node& container, const std::string& name) {
  for (const YAML::Node& e : container["env"]) {
    if (e["name"].as<std::string>("") == name) {
      return e["valueFrom"]["fieldRef"]["fieldPath"].as<std::string>("");
    }
  }
  return "";
}

// Every volumeMount names a volume of the pod.
void ExpectMountsResolve(const YAML::Node& workload) {
  std::vector<std::string> volumes;
  for (const YAML::Node& v : workload["spec"]["template"]["spec"]["volumes"]) {
    volumes.push_back(v["name"].as<std::string>());
  }
  for (const YAML::Node& c :
       workload["spec"]["template"]["spec"]["containers"]) {
    for (const YAML::Node& m : c["volumeMounts"]) {
      EXPECT_THAT(volumes, Contains(m["name"].as<std::string>()))
          << workload["metadata"]["name"];
    }
  }
}

// The selector selects the pod template.
void ExpectSelectorMatchesTemplate(const YAML::Node& workload) {
  const YAML::Node labels = workload["spec"]["template"]["metadata"]["labels"];
  for (const auto& kv : workload["spec"]["selector"]["matchLabels"]) {
    EXPECT_EQ(labels[kv.first.as<std::string>()].as<std::string>(""),
              kv.second.as<std::string>())
        << kv.first.as<std::string>();
  }
}

TEST_F(DevicePluginChartTest, HelmIs317) {
  auto result = RunHelm({"version", "--short"});
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_THAT(result->out, HasSubstr("v3.17."));
}

TEST_F(DevicePluginChartTest, LintIsClean) {
  auto result = RunHelm({"lint", "--strict", ChartPath(kChart)});
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(result->exit_code, 0) << result->out << result->err;
  EXPECT_THAT(result->out, HasSubstr("1 chart(s) linted, 0 chart(s) failed"));
  EXPECT_THAT(result->out, Not(HasSubstr("[WARNING]")));
  EXPECT_THAT(result->out, Not(HasSubstr("[ERROR]")));
}

TEST_F(DevicePluginChartTest, DefaultDevicePluginDaemonSet) {
  auto objects = Render();
  YAML::Node ds = FindObject(objects, "DaemonSet", "gcushare-device-plugin");
  ASSERT_TRUE(ds.IsMap());
  EXPECT_EQ(ds["metadata"]["namespace"].as<std::string>(""), kTestNamespace);
  const YAML::Node pod = ds["spec"]["template"]["spec"];
  EXPECT_EQ(pod["nodeSelector"]["enflame.com/gcushare"].as<std::string>(""),
            "true");
  EXPECT_EQ(pod["nodeSelector"].size(), 1u);
  EXPECT_EQ(pod["serviceAccountName"].as<std::string>(""),
            "gcushare-device-plugin");
  ExpectMountsResolve(ds);
  ExpectSelectorMatchesTemplate(ds);

  YAML::Node c = FindContainer(ds, "device-plugin");
  ASSERT_TRUE(c.IsMap());
  EXPECT_EQ(Strings(c["command"]),
            std::vector<std::string>{"/usr/bin/gcushare-device-plugin"});
  EXPECT_EQ(EnvFieldPath(c, "NODE_NAME"), "spec.nodeName");
  std::vector<std::string> args = Strings(c["args"]);
  EXPECT_THAT(args, Contains("--node-name=$(NODE_NAME)"));
  EXPECT_THAT(args, Contains("--memory-unit=1"));
  EXPECT_THAT(args, Contains("--efml-backend=auto"));
  EXPECT_THAT(args,
              Contains("--device-plugin-dir=/var/lib/kubelet/device-plugins"));
  EXPECT_THAT(args, Contains("--cdi-dir=/var/run/cdi"));
  EXPECT_THAT(args, Contains("--devices-from-nri=true"));
  EXPECT_THAT(args, Contains("--log-dir=/var/log/topscloud/gcushare"));
  EXPECT_THAT(args, Contains("--log-level=info"));
  EXPECT_EQ(HostPathMountedAt(ds, c, "/var/lib/kubelet/device-plugins"),
            "/var/lib/kubelet/device-plugins");
  EXPECT_EQ(HostPathMountedAt(ds, c, "/var/run/cdi"), "/var/run/cdi");
  EXPECT_EQ(HostPathMountedAt(ds, c, "/dev"), "/dev");
  EXPECT_EQ(HostPathMountedAt(ds, c, "/var/log/topscloud/gcushare"),
            "/var/log/topscloud/gcushare");
  EXPECT_EQ(c["image"].as<std::string>(""), "gcushare/gcushare:0.1.0");
  EXPECT_FALSE(FindObject(objects, "ConfigMap", "gcushare-fake-cards").IsMap());
}

TEST_F(DevicePluginChartTest, DefaultNriPluginDaemonSet) {
  auto objects = Render();
  YAML::Node ds = FindObject(objects, "DaemonSet", "gcushare-nri-plugin");
  ASSERT_TRUE(ds.IsMap());
  const YAML::Node pod = ds["spec"]["template"]["spec"];
  EXPECT_EQ(pod["nodeSelector"]["enflame.com/gcushare"].as<std::string>(""),
            "true");
  EXPECT_EQ(pod["serviceAccountName"].as<std::string>(""),
            "gcushare-nri-plugin");
  ExpectMountsResolve(ds);
  ExpectSelectorMatchesTemplate(ds);
  YAML::Node c = FindContainer(ds, "nri-plugin");
  ASSERT_TRUE(c.IsMap());
  EXPECT_EQ(EnvFieldPath(c, "NODE_NAME"), "spec.nodeName");
  ExpectRestricted(c);
  std::vector<std::string> args = Strings(c["args"]);
  EXPECT_THAT(args, Contains("--node-name=$(NODE_NAME)"));
  EXPECT_THAT(args, Contains("--nri-socket=/var/run/nri/nri.sock"));
  EXPECT_THAT(args, Contains("--plugin-index=10"));
  EXPECT_THAT(args, Contains("--memory-unit=1"));
  EXPECT_THAT(args, Contains("--log-dir=/var/log/topscloud/gcushare"));
  EXPECT_EQ(HostPathMountedAt(ds, c, "/var/run/nri"), "/var/run/nri");
  EXPECT_EQ(HostPathMountedAt(ds, c, "/var/run/cdi"), "/var/run/cdi");
  EXPECT_EQ(HostPathMountedAt(ds, c, "/dev"), "/dev");
  EXPECT_EQ(HostPathMountedAt(ds, c, "/var/log/topscloud/gcushare"),
            "/var/log/topscloud/gcushare");
}

TEST_F(DevicePluginChartTest, RbacIsLeastPrivilege) {
  auto objects = Render();
  YAML::Node dp = FindObject(objects, "ClusterRole", "gcushare-device-plugin");
  ASSERT_TRUE(dp.IsMap());
  // Exactly what the device plugin's code may call (enforced there at run
  // time by kube::PermissionCheckingKubeClient).
  EXPECT_EQ(RolePermissions(dp), deviceplugin::DevicePluginApiPermissions());
  YAML::Node nri = FindObject(objects, "ClusterRole", "gcushare-nri-plugin");
  ASSERT_TRUE(nri.IsMap());
  // Exactly what the NRI plugin's code may call: no get, it reads the API
  // server only through its watches.
  EXPECT_EQ(RolePermissions(nri), nri::NriPluginApiPermissions());

  const std::string ns = kTestNamespace;
  EXPECT_EQ(
      SubjectsBoundTo(objects, "ClusterRoleBinding", "gcushare-device-plugin"),
      std::set<std::string>{ns + "/gcushare-device-plugin"});
  EXPECT_EQ(
      SubjectsBoundTo(objects, "ClusterRoleBinding", "gcushare-nri-plugin"),
      std::set<std::string>{ns + "/gcushare-nri-plugin"});
  EXPECT_TRUE(
      FindObject(objects, "ServiceAccount", "gcushare-device-plugin").IsMap());
  EXPECT_TRUE(
      FindObject(objects, "ServiceAccount", "gcushare-nri-plugin").IsMap());
  for (const YAML::Node& b : ObjectsOfKind(objects, "ClusterRoleBinding")) {
    EXPECT_NE(b["roleRef"]["name"].as<std::string>(""), "cluster-admin");
  }
  EXPECT_THAT(ObjectsOfKind(objects, "Role"), IsEmpty());
}

TEST_F(DevicePluginChartTest, NonDefaultValues) {
  std::string cards = MakeTempDir() + "/cards.yaml";
  WriteFileOrDie(cards,
                 "cards:\n- index: 0\n  uuid: GCU-U0000000001\n"
                 "  memoryMiB: 16384\n");
  auto objects = Render(
      {"--set-string", "memoryUnit=0.01",
       "--set",        "logDir=/data/logs",
       "--set",        "logLevel=debug",
       "--set",        "image.repository=reg/gcu",
       "--set",        "image.tag=1.2.3",
       "--set",        "nodeSelector.pool=infer",
       "--set",        "nriPlugin.pluginIndex=42",
       "--set",        "nriPlugin.socket=/run/nri/nri.sock",
       "--set",        "devicePlugin.cdiDir=/etc/cdi",
       "--set",        "devicePlugin.extraArgs={--list-budget-bytes=1000}",
       "--set-file",   "devicePlugin.fakeCards=" + cards});
  YAML::Node ds = FindObject(objects, "DaemonSet", "gcushare-device-plugin");
  ASSERT_TRUE(ds.IsMap());
  const YAML::Node pod = ds["spec"]["template"]["spec"];
  EXPECT_EQ(pod["nodeSelector"]["enflame.com/gcushare"].as<std::string>(""),
            "true");
  EXPECT_EQ(pod["nodeSelector"]["pool"].as<std::string>(""), "infer");
  YAML::Node c = FindContainer(ds, "device-plugin");
  std::vector<std::string> args = Strings(c["args"]);
  EXPECT_THAT(args, Contains("--memory-unit=0.01"));
  EXPECT_THAT(args, Contains("--log-dir=/data/logs"));
  EXPECT_THAT(args, Contains("--log-level=debug"));
  EXPECT_THAT(args, Contains("--cdi-dir=/etc/cdi"));
  EXPECT_THAT(args, Contains("--efml-backend=fake"));
  EXPECT_THAT(args, Contains("--fake-cards=/etc/gcushare/fake-cards.yaml"));
  EXPECT_THAT(args, Contains("--list-budget-bytes=1000"));
  EXPECT_THAT(args, Not(Contains("--efml-backend=auto")));
  EXPECT_EQ(c["image"].as<std::string>(""), "reg/gcu:1.2.3");
  EXPECT_EQ(HostPathMountedAt(ds, c, "/data/logs"), "/data/logs");
  EXPECT_EQ(HostPathMountedAt(ds, c, "/etc/cdi"), "/etc/cdi");
  ExpectMountsResolve(ds);
  YAML::Node cm = FindObject(objects, "ConfigMap", "gcushare-fake-cards");
  ASSERT_TRUE(cm.IsMap());
  EXPECT_EQ(
      YAML::Load(
          cm["data"]["fake-cards.yaml"].as<std::string>())["cards"][0]["uuid"]
          .as<std::string>(""),
      "GCU-U0000000001");

  YAML::Node nri = FindObject(objects, "DaemonSet", "gcushare-nri-plugin");
  ASSERT_TRUE(nri.IsMap());
  YAML::Node n = FindContainer(nri, "nri-plugin");
  std::vector<std::string> nargs = Strings(n["args"]);
  EXPECT_THAT(nargs, Contains("--plugin-index=42"));
  EXPECT_THAT(nargs, Contains("--nri-socket=/run/nri/nri.sock"));
  EXPECT_THAT(nargs, Contains("--memory-unit=0.01"));
  EXPECT_EQ(HostPathMountedAt(nri, n, "/run/nri"), "/run/nri");
}

TEST_F(DevicePluginChartTest, NriPluginCanBeTurnedOff) {
  auto objects = Render({"--set", "nriPlugin.enabled=false"});
  EXPECT_TRUE(
      FindObject(objects, "DaemonSet", "gcushare-device-plugin").IsMap());
  EXPECT_FALSE(FindObject(objects, "DaemonSet", "gcushare-nri-plugin").IsMap());
  EXPECT_FALSE(
      FindObject(objects, "ClusterRole", "gcushare-nri-plugin").IsMap());
  EXPECT_FALSE(
      FindObject(objects, "ServiceAccount", "gcushare-nri-plugin").IsMap());
  // Without NRI, Allocate hands out the devices itself.
  YAML::Node dp = FindObject(objects, "DaemonSet", "gcushare-device-plugin");
  EXPECT_THAT(Strings(FindContainer(dp, "device-plugin")["args"]),
              Contains("--devices-from-nri=false"));
}

TEST_F(DevicePluginChartTest, NumericMemoryUnitFromValuesFile) {
  std::string values = MakeTempDir() + "/values.yaml";
  WriteFileOrDie(values, "memoryUnit: 0.001\n");
  auto objects = Render({"-f", values});
  YAML::Node ds = FindObject(objects, "DaemonSet", "gcushare-device-plugin");
  ASSERT_TRUE(ds.IsMap());
  EXPECT_THAT(Strings(FindContainer(ds, "device-plugin")["args"]),
              Contains("--memory-unit=0.001"));
}

TEST_F(DevicePluginChartTest, SchemaRejectsBadValues) {
  struct Case {
    std::vector<std::string> args;
    std::string field;
  };
  const std::vector<Case> cases = {
      {{"--set-string", "memoryUnit=0.5"}, "memoryUnit"},
      {{"--set-string", "memoryUnit=GiB"}, "memoryUnit"},
      {{"--set", "memoryUnit=2"}, "memoryUnit"},
      {{"--set", "memoryUnit=0.0001"}, "memoryUnit"},
      {{"--set", "logLevel=loud"}, "logLevel"},
      {{"--set", "devicePlugin.efmlBackend=nvml"}, "efmlBackend"},
      {{"--set", "nriPlugin.pluginIndex=100"}, "pluginIndex"},
      {{"--set", "logDir=relative/logs"}, "logDir"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> argv = {"template", "gcushare", ChartPath(kChart)};
    argv.insert(argv.end(), c.args.begin(), c.args.end());
    auto result = RunHelm(argv);
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    EXPECT_NE(result->exit_code, 0) << c.args.back();
    EXPECT_THAT(result->err, HasSubstr("schema")) << c.args.back();
    EXPECT_THAT(result->err, HasSubstr(c.field)) << c.args.back();
    EXPECT_THAT(result->out, IsEmpty()) << c.args.back();
  }
  // And every valid unit passes, as a string and as a number.
  for (const std::string unit : {"1", "0.1", "0.01", "0.001"}) {
    for (const std::string flag : {"--set-string", "--set"}) {
      auto objects = RenderChart(kChart, {flag, "memoryUnit=" + unit});
      EXPECT_TRUE(objects.ok())
          << flag << " " << unit << ": " << objects.status().ToString();
    }
  }
}

}  // namespace
}  // namespace gcushare::testing
