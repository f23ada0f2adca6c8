// The DRA parts of the gcushare-device-plugin chart, rendered by the real
// helm 3.17: off by default; when on, the driver's DaemonSet on the DRA node
// pool only (and the classic agents kept off it), its mounts at the host
// paths the kubelet dials, the DeviceClasses, and least-privilege RBAC
// equal to what the driver's code declares.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dra-driver/api_permissions.h"
#include "tests/helm/chart_test.h"
#include "tests/helm/helm_runner.h"
#include "tests/helm/rbac.h"

namespace gcushare::testing {
namespace {

using ::testing::Contains;
using ::testing::IsEmpty;

class DraChartTest : public ChartTest {
 protected:
  DraChartTest() : ChartTest("gcushare-device-plugin") {}
};

std::vector<std::string> Args(const YAML::Node& daemonset) {
  std::vector<std::string> args;
  for (const YAML::Node& a :
       daemonset["spec"]["template"]["spec"]["containers"][0]["args"]) {
    args.push_back(a.as<std::string>());
  }
  return args;
}

// The NotIn dra term of every required nodeSelectorTerm of a workload.
bool KeepsOffDraNodes(const YAML::Node& workload) {
  const YAML::Node terms =
      workload["spec"]["template"]["spec"]["affinity"]["nodeAffinity"]
              ["requiredDuringSchedulingIgnoredDuringExecution"]
              ["nodeSelectorTerms"];
  if (!terms.IsSequence() || terms.size() == 0) return false;
  for (const YAML::Node& term : terms) {
    bool found = false;
    for (const YAML::Node& e : term["matchExpressions"]) {
      found |= e["key"].as<std::string>("") == "enflame.com/gcushare-mode" &&
               e["operator"].as<std::string>("") == "NotIn" &&
               e["values"][0].as<std::string>("") == "dra";
    }
    if (!found) return false;
  }
  return true;
}

TEST_F(DraChartTest, OffByDefaultAndClassicAgentsKeepOffDraNodes) {
  auto objects = Render();
  EXPECT_FALSE(FindObject(objects, "DaemonSet", "gcushare-dra-driver").IsMap());
  EXPECT_THAT(ObjectsOfKind(objects, "DeviceClass"), IsEmpty());
  EXPECT_FALSE(
      FindObject(objects, "ClusterRole", "gcushare-dra-driver").IsMap());
  for (const char* name : {"gcushare-device-plugin", "gcushare-nri-plugin"}) {
    YAML::Node ds = FindObject(objects, "DaemonSet", name);
    ASSERT_TRUE(ds.IsMap()) << name;
    EXPECT_TRUE(KeepsOffDraNodes(ds)) << name;
  }
}

TEST_F(DraChartTest, UserAffinityKeepsItsTermsAndGainsOurs) {
  auto objects = Render(
      {"--set",
       "affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
       "nodeSelectorTerms[0].matchExpressions[0].key=zone",
       "--set",
       "affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
       "nodeSelectorTerms[0].matchExpressions[0].operator=Exists"});
  YAML::Node ds = FindObject(objects, "DaemonSet", "gcushare-device-plugin");
  ASSERT_TRUE(ds.IsMap());
  EXPECT_TRUE(KeepsOffDraNodes(ds));
  const YAML::Node expressions =
      ds["spec"]["template"]["spec"]["affinity"]["nodeAffinity"]
        ["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"]
        [0]["matchExpressions"];
  ASSERT_EQ(expressions.size(), 2u);
  EXPECT_EQ(expressions[0]["key"].as<std::string>(""), "zone");
}

TEST_F(DraChartTest, DriverDaemonSetOnTheDraPool) {
  auto objects = Render({"--set", "draDriver.enabled=true", "--set",
                         "draDriver.kubeletRoot=/data/kubelet"});
  YAML::Node ds = FindObject(objects, "DaemonSet", "gcushare-dra-driver");
  ASSERT_TRUE(ds.IsMap());
  const YAML::Node spec = ds["spec"]["template"]["spec"];
  EXPECT_EQ(spec["nodeSelector"]["enflame.com/gcushare"].as<std::string>(""),
            "true");
  EXPECT_EQ(
      spec["nodeSelector"]["enflame.com/gcushare-mode"].as<std::string>(""),
      "dra");
  EXPECT_EQ(spec["serviceAccountName"].as<std::string>(""),
            "gcushare-dra-driver");
  const std::vector<std::string> args = Args(ds);
  EXPECT_THAT(args, Contains("--kubelet-root=/data/kubelet"));
  EXPECT_THAT(args, Contains("--cdi-dir=/var/run/cdi"));
  EXPECT_THAT(args, Contains("--node-name=$(NODE_NAME)"));
  EXPECT_THAT(args, Contains("--memory-unit=1"));
  // The kubelet dials the announced socket path: mounted at the host path.
  std::map<std::string, std::string> host_paths;
  for (const YAML::Node& v : spec["volumes"]) {
    if (v["hostPath"].IsMap()) {
      host_paths[v["name"].as<std::string>()] =
          v["hostPath"]["path"].as<std::string>();
    }
  }
  for (const YAML::Node& m : spec["containers"][0]["volumeMounts"]) {
    const std::string name = m["name"].as<std::string>();
    if (host_paths.count(name) != 0) {
      EXPECT_EQ(m["mountPath"].as<std::string>(), host_paths[name]) << name;
    }
  }
  EXPECT_EQ(host_paths["plugins-registry"], "/data/kubelet/plugins_registry");
  EXPECT_EQ(host_paths["plugins"], "/data/kubelet/plugins");
  // The classic agents still keep off the DRA pool.
  EXPECT_TRUE(KeepsOffDraNodes(
      FindObject(objects, "DaemonSet", "gcushare-device-plugin")));
}

TEST_F(DraChartTest, DeviceClasses) {
  auto objects = Render({"--set", "draDriver.enabled=true"});
  YAML::Node shares = FindObject(objects, "DeviceClass", "gcu.enflame.com");
  ASSERT_TRUE(shares.IsMap());
  EXPECT_EQ(shares["apiVersion"].as<std::string>(""), "resource.k8s.io/v1");
  EXPECT_EQ(
      shares["spec"]["selectors"][0]["cel"]["expression"].as<std::string>(""),
      "device.driver == \"gcu.enflame.com\"");
  EXPECT_FALSE(shares["spec"]["extendedResourceName"].IsDefined());
  YAML::Node whole =
      FindObject(objects, "DeviceClass", "whole-gcu.enflame.com");
  ASSERT_TRUE(whole.IsMap());
  EXPECT_EQ(whole["spec"]["extendedResourceName"].as<std::string>(""),
            "enflame.com/gcu-count");

  auto without = Render({"--set", "draDriver.enabled=true", "--set",
                         "draDriver.extendedResourceCount=false"});
  EXPECT_FALSE(
      FindObject(without, "DeviceClass",
                 "whole-gcu.enflame.com")["spec"]["extendedResourceName"]
          .IsDefined());
}

TEST_F(DraChartTest, RbacIsLeastPrivilege) {
  auto objects = Render({"--set", "draDriver.enabled=true"});
  YAML::Node role = FindObject(objects, "ClusterRole", "gcushare-dra-driver");
  ASSERT_TRUE(role.IsMap());
  EXPECT_EQ(RolePermissions(role), dra::DraDriverApiPermissions());
  EXPECT_EQ(
      SubjectsBoundTo(objects, "ClusterRoleBinding", "gcushare-dra-driver"),
      std::set<std::string>{std::string(kTestNamespace) +
                            "/gcushare-dra-driver"});
  EXPECT_TRUE(
      FindObject(objects, "ServiceAccount", "gcushare-dra-driver").IsMap());
}

TEST_F(DraChartTest, SchemaRejectsARelativeKubeletRoot) {
  auto objects = RenderChart("gcushare-device-plugin",
                             {"--set", "draDriver.enabled=true", "--set",
                              "draDriver.kubeletRoot=var/lib/kubelet"});
  EXPECT_FALSE(objects.ok());
}

}  // namespace
}  // namespace gcushare::testing
