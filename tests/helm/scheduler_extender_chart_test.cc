// The gcushare-scheduler-extender chart, rendered by the real helm 3.17:
// lint, default and non-default values, the Service on 32766, the extender
// and config-manager workloads, and least-privilege RBAC.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config-manager/api_permissions.h"
#include "extender/api_permissions.h"
#include "tests/helm/chart_test.h"
#include "tests/helm/helm_runner.h"
#include "tests/helm/rbac.h"

namespace gcushare::testing {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

constexpr char kChart[] = "gcushare-scheduler-extender";

class SchedulerExtenderChartTest : public ChartTest {
 protected:
  SchedulerExtenderChartTest() : ChartTest(kChart) {}
};

TEST_F(SchedulerExtenderChartTest, LintIsClean) {
  auto result = RunHelm({"lint", "--strict", ChartPath(kChart)});
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(result->exit_code, 0) << result->out << result->err;
  EXPECT_THAT(result->out, HasSubstr("1 chart(s) linted, 0 chart(s) failed"));
  EXPECT_THAT(result->out, Not(HasSubstr("[WARNING]")));
  EXPECT_THAT(result->out, Not(HasSubstr("[ERROR]")));
}

TEST_F(SchedulerExtenderChartTest, ServiceReachesTheExtenderOn32766) {
  auto objects = Render();
  YAML::Node svc =
      FindObject(objects, "Service", "gcushare-scheduler-extender");
  ASSERT_TRUE(svc.IsMap());
  EXPECT_EQ(svc["metadata"]["namespace"].as<std::string>(""), kTestNamespace);
  ASSERT_EQ(svc["spec"]["ports"].size(), 1u);
  const YAML::Node port = svc["spec"]["ports"][0];
  EXPECT_EQ(port["port"].as<int>(0), 32766);
  EXPECT_EQ(port["targetPort"].as<std::string>(""), "http");
  // Several replicas (the default): any replica answers any verb, so the
  // Service spreads the calls.
  EXPECT_EQ(svc["spec"]["sessionAffinity"].as<std::string>(""), "None");

  YAML::Node deploy =
      FindObject(objects, "Deployment", "gcushare-scheduler-extender");
  ASSERT_TRUE(deploy.IsMap());
  // The Service's selector picks the Deployment's pods ...
  const YAML::Node labels = deploy["spec"]["template"]["metadata"]["labels"];
  for (const auto& kv : svc["spec"]["selector"]) {
    EXPECT_EQ(labels[kv.first.as<std::string>()].as<std::string>(""),
              kv.second.as<std::string>());
  }
  // ... and its named target port is the container's 32766.
  YAML::Node c = FindContainer(deploy, "scheduler-extender");
  ASSERT_TRUE(c.IsMap());
  ASSERT_EQ(c["ports"].size(), 1u);
  EXPECT_EQ(c["ports"][0]["name"].as<std::string>(""), "http");
  EXPECT_EQ(c["ports"][0]["containerPort"].as<int>(0), 32766);
}

TEST_F(SchedulerExtenderChartTest, DefaultExtenderDeployment) {
  auto objects = Render();
  YAML::Node deploy =
      FindObject(objects, "Deployment", "gcushare-scheduler-extender");
  ASSERT_TRUE(deploy.IsMap());
  EXPECT_EQ(deploy["spec"]["replicas"].as<int>(0), 2);
  EXPECT_EQ(
      deploy["spec"]["template"]["spec"]["serviceAccountName"].as<std::string>(
          ""),
      "gcushare-scheduler-extender");
  YAML::Node c = FindContainer(deploy, "scheduler-extender");
  EXPECT_EQ(Strings(c["command"]),
            std::vector<std::string>{"/usr/bin/gcushare-scheduler-extender"});
  std::vector<std::string> args = Strings(c["args"]);
  EXPECT_THAT(args, Contains("--port=32766"));
  EXPECT_THAT(args, Contains("--policy=binpack"));
  EXPECT_THAT(args, Contains("--log-dir=/var/log/topscloud/gcushare"));
  EXPECT_EQ(c["readinessProbe"]["httpGet"]["path"].as<std::string>(""),
            "/gcushare-scheduler/healthz");
  EXPECT_EQ(c["livenessProbe"]["httpGet"]["path"].as<std::string>(""),
            "/gcushare-scheduler/version");
  // Non-root: its log directory is in the pod (image_and_user_test).
  EXPECT_EQ(HostPathMountedAt(deploy, c, "/var/log/topscloud/gcushare"), "");
  ExpectRestricted(c);
}

TEST_F(SchedulerExtenderChartTest, DefaultConfigManagerDaemonSet) {
  auto objects = Render();
  YAML::Node ds = FindObject(objects, "DaemonSet", "gcushare-config-manager");
  ASSERT_TRUE(ds.IsMap());
  const YAML::Node pod = ds["spec"]["template"]["spec"];
  EXPECT_TRUE(pod["nodeSelector"]["node-role.kubernetes.io/control-plane"]);
  std::vector<std::string> tolerated;
  for (const YAML::Node& t : pod["tolerations"]) {
    tolerated.push_back(t["key"].as<std::string>(""));
  }
  EXPECT_THAT(tolerated, Contains("node-role.kubernetes.io/control-plane"));
  EXPECT_EQ(pod["serviceAccountName"].as<std::string>(""),
            "gcushare-config-manager");
  YAML::Node c = FindContainer(ds, "config-manager");
  ASSERT_TRUE(c.IsMap());
  std::vector<std::string> args = Strings(c["args"]);
  ASSERT_FALSE(args.empty());
  EXPECT_EQ(args[0], "run");
  EXPECT_THAT(
      args,
      Contains("--manifest=/etc/kubernetes/manifests/kube-scheduler.yaml"));
  EXPECT_THAT(args, Contains("--state-dir=/etc/kubernetes/gcushare"));
  EXPECT_THAT(args, Contains(std::string("--extender-service=") +
                             kTestNamespace + "/gcushare-scheduler-extender"));
  // SIGTERM (upgrade, drain) must not restore: no restore-on-exit. Plain
  // pods are ranked by default (extender.rankPlainPods: true).
  for (const std::string& arg : args) {
    EXPECT_THAT(arg, Not(HasSubstr("restore-on-exit")));
  }
  EXPECT_THAT(args, Contains(std::string("--rank-plain-pods")));
  EXPECT_THAT(args, Not(Contains(std::string("--no-rank-plain-pods"))));
  // Only the manifests and its own directory, never admin.conf or the CA.
  EXPECT_EQ(HostPathMountedAt(ds, c, "/etc/kubernetes/manifests"),
            "/etc/kubernetes/manifests");
  EXPECT_EQ(HostPathMountedAt(ds, c, "/etc/kubernetes/gcushare"),
            "/etc/kubernetes/gcushare");
  EXPECT_EQ(HostPathMountedAt(ds, c, "/etc/kubernetes"), "");
  EXPECT_EQ(c["volumeMounts"].size(), 3u);
  ExpectRestricted(c);
  EXPECT_EQ(HostPathMountedAt(ds, c, "/var/log/topscloud/gcushare"),
            "/var/log/topscloud/gcushare");
}

TEST_F(SchedulerExtenderChartTest, RbacIsLeastPrivilege) {
  auto objects = Render();
  YAML::Node role =
      FindObject(objects, "ClusterRole", "gcushare-scheduler-extender");
  ASSERT_TRUE(role.IsMap());
  // Exactly what the extender's code may call (enforced there at run
  // time by kube::PermissionCheckingKubeClient).
  EXPECT_EQ(RolePermissions(role), extender::ExtenderClusterPermissions());
  const std::string ns = kTestNamespace;
  EXPECT_EQ(SubjectsBoundTo(objects, "ClusterRoleBinding",
                            "gcushare-scheduler-extender"),
            std::set<std::string>{ns + "/gcushare-scheduler-extender"});
  // Leader election: its one Lease, by name, in its namespace.
  YAML::Node lease_role = FindObject(
      objects, "Role", "gcushare-scheduler-extender-leader-election");
  ASSERT_TRUE(lease_role.IsMap());
  EXPECT_EQ(lease_role["metadata"]["namespace"].as<std::string>(""), ns);
  EXPECT_EQ(RolePermissions(lease_role), extender::ExtenderLeasePermissions());
  for (const YAML::Node& rule : lease_role["rules"]) {
    const std::vector<std::string> verbs = Strings(rule["verbs"]);
    if (verbs == std::vector<std::string>{"create"}) {
      // RBAC cannot limit create to a name.
      EXPECT_FALSE(rule["resourceNames"].IsDefined());
    } else {
      EXPECT_EQ(Strings(rule["resourceNames"]),
                std::vector<std::string>{"gcushare-scheduler-extender"});
    }
  }
  EXPECT_EQ(SubjectsBoundTo(objects, "RoleBinding",
                            "gcushare-scheduler-extender-leader-election"),
            std::set<std::string>{ns + "/gcushare-scheduler-extender"});

  // The config manager reads one Service, by name, in its namespace.
  EXPECT_EQ(ObjectsOfKind(objects, "ClusterRole").size(), 1u);
  YAML::Node cm = FindObject(objects, "Role", "gcushare-config-manager");
  ASSERT_TRUE(cm.IsMap());
  EXPECT_EQ(cm["metadata"]["namespace"].as<std::string>(""), kTestNamespace);
  EXPECT_EQ(RolePermissions(cm), config_manager::ConfigManagerApiPermissions());
  EXPECT_EQ(Strings(cm["rules"][0]["resourceNames"]),
            std::vector<std::string>{"gcushare-scheduler-extender"});
  EXPECT_EQ(SubjectsBoundTo(objects, "RoleBinding", "gcushare-config-manager"),
            std::set<std::string>{ns + "/gcushare-config-manager"});
}

TEST_F(SchedulerExtenderChartTest, NonDefaultValues) {
  auto objects =
      Render({"--set", "extender.policy=spread", "--set",
              "logDir=/data/gcu-logs", "--set", "extender.serviceName=gcu-ext",
              "--set", "configManager.kubernetesVersion=1.23", "--set",
              "configManager.kubernetesDir=/srv/k8s", "--set",
              "extender.tolerations[0].key=dedicated", "--set",
              "extender.tolerations[0].operator=Exists", "--set",
              "extender.resources.limits.memory=2Gi"});
  YAML::Node deploy =
      FindObject(objects, "Deployment", "gcushare-scheduler-extender");
  ASSERT_TRUE(deploy.IsMap());
  YAML::Node c = FindContainer(deploy, "scheduler-extender");
  EXPECT_THAT(Strings(c["args"]), Contains("--policy=spread"));
  EXPECT_THAT(Strings(c["args"]), Contains("--log-dir=/data/gcu-logs"));
  EXPECT_EQ(c["resources"]["limits"]["memory"].as<std::string>(""), "2Gi");
  EXPECT_EQ(deploy["spec"]["template"]["spec"]["tolerations"][0]["key"]
                .as<std::string>(""),
            "dedicated");
  EXPECT_TRUE(FindObject(objects, "Service", "gcu-ext").IsMap());
  YAML::Node ds = FindObject(objects, "DaemonSet", "gcushare-config-manager");
  YAML::Node m = FindContainer(ds, "config-manager");
  std::vector<std::string> args = Strings(m["args"]);
  EXPECT_THAT(args, Contains("--kubernetes-version=1.23"));
  EXPECT_THAT(args,
              Contains("--manifest=/srv/k8s/manifests/kube-scheduler.yaml"));
  EXPECT_THAT(args, Contains(std::string("--extender-service=") +
                             kTestNamespace + "/gcu-ext"));
  EXPECT_EQ(HostPathMountedAt(ds, m, "/srv/k8s/manifests"),
            "/srv/k8s/manifests");
  YAML::Node role = FindObject(objects, "Role", "gcushare-config-manager");
  EXPECT_EQ(Strings(role["rules"][0]["resourceNames"]),
            std::vector<std::string>{"gcu-ext"});
}

TEST_F(SchedulerExtenderChartTest, SeveralReplicasElectOneBinder) {
  auto objects = Render();
  YAML::Node deploy =
      FindObject(objects, "Deployment", "gcushare-scheduler-extender");
  ASSERT_TRUE(deploy.IsMap());
  // A rolling update never takes a replica away before its successor is
  // ready.
  const YAML::Node strategy = deploy["spec"]["strategy"];
  EXPECT_EQ(strategy["type"].as<std::string>(""), "RollingUpdate");
  EXPECT_EQ(strategy["rollingUpdate"]["maxUnavailable"].as<int>(-1), 0);
  EXPECT_EQ(strategy["rollingUpdate"]["maxSurge"].as<int>(0), 1);
  // Replicas prefer different nodes.
  const YAML::Node spec = deploy["spec"]["template"]["spec"];
  const YAML::Node preferred =
      spec["affinity"]["podAntiAffinity"]
          ["preferredDuringSchedulingIgnoredDuringExecution"];
  ASSERT_EQ(preferred.size(), 1u);
  EXPECT_EQ(preferred[0]["podAffinityTerm"]["topologyKey"].as<std::string>(""),
            "kubernetes.io/hostname");
  EXPECT_EQ(preferred[0]["podAffinityTerm"]["labelSelector"]["matchLabels"]
                     ["app.kubernetes.io/name"]
                         .as<std::string>(""),
            "gcushare-scheduler-extender");
  EXPECT_FALSE(spec["affinity"]["podAntiAffinity"]
                   ["requiredDuringSchedulingIgnoredDuringExecution"]
                       .IsDefined());
  YAML::Node c = FindContainer(deploy, "scheduler-extender");
  std::vector<std::string> args = Strings(c["args"]);
  EXPECT_THAT(args, Contains("--leader-elect=true"));
  EXPECT_THAT(args, Contains(std::string("--leader-elect-resource-namespace=") +
                             kTestNamespace));
  EXPECT_THAT(args, Contains("--leader-elect-resource-name=gcushare-scheduler-"
                             "extender"));
  EXPECT_THAT(args, Contains("--leader-elect-lease-duration=4s"));
  EXPECT_THAT(args, Contains("--leader-elect-renew-deadline=3s"));
  EXPECT_THAT(args, Contains("--leader-elect-retry-period=500ms"));
  EXPECT_THAT(args, Contains("--shutdown-delay-duration=5s"));
  // The advertised URL comes from the pod IP.
  bool pod_ip = false;
  for (const YAML::Node& env : c["env"]) {
    if (env["name"].as<std::string>("") == "POD_IP") {
      pod_ip = env["valueFrom"]["fieldRef"]["fieldPath"].as<std::string>("") ==
               "status.podIP";
    }
  }
  EXPECT_TRUE(pod_ip);
  // Readiness: out at once when stopping; the grace period covers the
  // shutdown delay.
  EXPECT_EQ(c["readinessProbe"]["periodSeconds"].as<int>(0), 1);
  EXPECT_EQ(c["readinessProbe"]["failureThreshold"].as<int>(0), 1);
  EXPECT_GT(spec["terminationGracePeriodSeconds"].as<int>(0), 5);
  // Node drains take one replica at a time.
  YAML::Node pdb =
      FindObject(objects, "PodDisruptionBudget", "gcushare-scheduler-extender");
  ASSERT_TRUE(pdb.IsMap());
  EXPECT_EQ(pdb["metadata"]["namespace"].as<std::string>(""), kTestNamespace);
  EXPECT_EQ(pdb["spec"]["maxUnavailable"].as<int>(0), 1);
  EXPECT_EQ(pdb["spec"]["selector"]["matchLabels"]["app.kubernetes.io/name"]
                .as<std::string>(""),
            "gcushare-scheduler-extender");
}

TEST_F(SchedulerExtenderChartTest, OneReplicaRunsWithoutElection) {
  auto objects = Render({"--set", "extender.replicas=1"});
  YAML::Node deploy =
      FindObject(objects, "Deployment", "gcushare-scheduler-extender");
  ASSERT_TRUE(deploy.IsMap());
  EXPECT_EQ(deploy["spec"]["replicas"].as<int>(0), 1);
  EXPECT_EQ(deploy["spec"]["strategy"]["type"].as<std::string>(""), "Recreate");
  YAML::Node c = FindContainer(deploy, "scheduler-extender");
  for (const std::string& arg : Strings(c["args"])) {
    EXPECT_THAT(arg, Not(HasSubstr("--leader-elect")));
  }
  EXPECT_FALSE(deploy["spec"]["template"]["spec"]["affinity"].IsDefined());
  EXPECT_FALSE(
      FindObject(objects, "PodDisruptionBudget", "gcushare-scheduler-extender")
          .IsMap());
  EXPECT_FALSE(
      FindObject(objects, "Role", "gcushare-scheduler-extender-leader-election")
          .IsMap());
  YAML::Node svc =
      FindObject(objects, "Service", "gcushare-scheduler-extender");
  EXPECT_EQ(svc["spec"]["sessionAffinity"].as<std::string>(""), "ClientIP");
}

TEST_F(SchedulerExtenderChartTest, OwnAntiAffinityAndLeaseSettingsAreKept) {
  const std::string zone_anti_affinity =
      "extender.affinity.podAntiAffinity."
      "requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey="
      "topology.kubernetes.io/zone";
  auto objects =
      Render({"--set", "extender.replicas=3", "--set", zone_anti_affinity,
              "--set", "extender.leaderElection.leaseName=gcu-binder", "--set",
              "extender.leaderElection.leaseDuration=15s"});
  YAML::Node deploy =
      FindObject(objects, "Deployment", "gcushare-scheduler-extender");
  ASSERT_TRUE(deploy.IsMap());
  EXPECT_EQ(deploy["spec"]["replicas"].as<int>(0), 3);
  const YAML::Node anti =
      deploy["spec"]["template"]["spec"]["affinity"]["podAntiAffinity"];
  EXPECT_TRUE(
      anti["requiredDuringSchedulingIgnoredDuringExecution"].IsDefined());
  EXPECT_FALSE(
      anti["preferredDuringSchedulingIgnoredDuringExecution"].IsDefined());
  YAML::Node c = FindContainer(deploy, "scheduler-extender");
  EXPECT_THAT(Strings(c["args"]),
              Contains("--leader-elect-resource-name=gcu-binder"));
  EXPECT_THAT(Strings(c["args"]),
              Contains("--leader-elect-lease-duration=15s"));
  YAML::Node role = FindObject(objects, "Role",
                               "gcushare-scheduler-extender-leader-election");
  ASSERT_TRUE(role.IsMap());
  EXPECT_EQ(Strings(role["rules"][0]["resourceNames"]),
            std::vector<std::string>{"gcu-binder"});
}

TEST_F(SchedulerExtenderChartTest, NetworkPolicyAdmitsTheOtherReplicas) {
  auto objects = Render({"--set", "networkPolicy.enabled=true", "--set",
                         "networkPolicy.schedulerCIDRs[0]=10.0.0.10/32"});
  YAML::Node np =
      FindObject(objects, "NetworkPolicy", "gcushare-scheduler-extender");
  ASSERT_TRUE(np.IsMap());
  bool replicas = false;
  for (const YAML::Node& from : np["spec"]["ingress"][0]["from"]) {
    if (!from["podSelector"].IsDefined()) continue;
    if (from["podSelector"]["matchLabels"]["app.kubernetes.io/name"]
            .as<std::string>("") == "gcushare-scheduler-extender") {
      replicas = true;
    }
  }
  EXPECT_TRUE(replicas) << "followers could not forward binds";
}

// The config manager adds the plain-pod entry by default; the chart
// turns it off explicitly.
TEST_F(SchedulerExtenderChartTest, RankPlainPodsFalseDropsThePlainEntry) {
  auto objects = Render({"--set", "extender.rankPlainPods=false"});
  YAML::Node ds = FindObject(objects, "DaemonSet", "gcushare-config-manager");
  YAML::Node c = FindContainer(ds, "config-manager");
  ASSERT_TRUE(c.IsMap());
  std::vector<std::string> args = Strings(c["args"]);
  EXPECT_THAT(args, Contains(std::string("--no-rank-plain-pods")));
  EXPECT_THAT(args, Not(Contains(std::string("--rank-plain-pods"))));
}

TEST_F(SchedulerExtenderChartTest, ExplicitExtenderUrlNeedsNoRbac) {
  auto objects = Render(
      {"--set",
       "configManager.extenderURL=http://10.96.0.50:32766/gcushare-scheduler"});
  YAML::Node ds = FindObject(objects, "DaemonSet", "gcushare-config-manager");
  std::vector<std::string> args =
      Strings(FindContainer(ds, "config-manager")["args"]);
  EXPECT_THAT(
      args,
      Contains("--extender-url=http://10.96.0.50:32766/gcushare-scheduler"));
  EXPECT_FALSE(FindObject(objects, "Role", "gcushare-config-manager").IsMap());
  EXPECT_FALSE(
      FindObject(objects, "RoleBinding", "gcushare-config-manager").IsMap());
}

TEST_F(SchedulerExtenderChartTest, ConfigManagerCanBeTurnedOff) {
  auto objects = Render({"--set", "configManager.enabled=false"});
  EXPECT_TRUE(
      FindObject(objects, "Deployment", "gcushare-scheduler-extender").IsMap());
  EXPECT_FALSE(
      FindObject(objects, "DaemonSet", "gcushare-config-manager").IsMap());
  EXPECT_FALSE(
      FindObject(objects, "ServiceAccount", "gcushare-config-manager").IsMap());
  // Only the extender's leader-election Role is left.
  EXPECT_FALSE(FindObject(objects, "Role", "gcushare-config-manager").IsMap());
  EXPECT_EQ(ObjectsOfKind(objects, "Role").size(), 1u);
}

TEST_F(SchedulerExtenderChartTest, SchemaRejectsBadValues) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"extender.policy=random", "policy"},
      {"extender.rankPlainPods=maybe", "rankPlainPods"},
      {"extender.httpThreads=1", "httpThreads"},
      {"configManager.kubernetesVersion=latest", "kubernetesVersion"},
      {"configManager.extenderURL=ftp://x", "extenderURL"},
      {"extender.serviceName=Bad_Name", "serviceName"},
      {"logLevel=chatty", "logLevel"},
      {"networkPolicy.schedulerCIDRs={10.0.0.1}", "schedulerCIDRs"},
      {"extender.replicas=0", "replicas"},
      {"extender.leaderElection.leaseDuration=4500ms", "leaseDuration"},
      {"extender.leaderElection.retryPeriod=fast", "retryPeriod"},
      {"extender.leaderElection.leaseName=Bad_Name", "leaseName"},
      {"extender.shutdownDelaySeconds=-1", "shutdownDelaySeconds"},
  };
  for (const auto& [set, field] : cases) {
    auto result =
        RunHelm({"template", "gcushare", ChartPath(kChart), "--set", set});
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    EXPECT_NE(result->exit_code, 0) << set;
    EXPECT_THAT(result->err, HasSubstr("schema")) << set;
    EXPECT_THAT(result->err, HasSubstr(field)) << set;
  }
}

TEST_F(SchedulerExtenderChartTest, NetworkPolicyAdmitsOnlySchedulerAndScraper) {
  EXPECT_FALSE(
      FindObject(Render(), "NetworkPolicy", "gcushare-scheduler-extender")
          .IsMap());
  auto objects = Render(
      {"--set", "networkPolicy.enabled=true", "--set",
       "networkPolicy.schedulerCIDRs={10.0.0.10/32,10.0.0.11/32}", "--set",
       "networkPolicy.metricsFrom[0].namespaceSelector.matchLabels.team=mon"});
  YAML::Node policy =
      FindObject(objects, "NetworkPolicy", "gcushare-scheduler-extender");
  ASSERT_TRUE(policy.IsMap());
  YAML::Node deploy =
      FindObject(objects, "Deployment", "gcushare-scheduler-extender");
  const YAML::Node labels = deploy["spec"]["template"]["metadata"]["labels"];
  for (const auto& kv : policy["spec"]["podSelector"]["matchLabels"]) {
    EXPECT_EQ(labels[kv.first.as<std::string>()].as<std::string>(""),
              kv.second.as<std::string>());
  }
  ASSERT_EQ(policy["spec"]["ingress"].size(), 1u);
  const YAML::Node rule = policy["spec"]["ingress"][0];
  // Then the other replicas (they forward binds to the binder).
  ASSERT_EQ(rule["from"].size(), 4u);
  EXPECT_EQ(rule["from"][0]["ipBlock"]["cidr"].as<std::string>(""),
            "10.0.0.10/32");
  EXPECT_EQ(rule["from"][1]["ipBlock"]["cidr"].as<std::string>(""),
            "10.0.0.11/32");
  EXPECT_EQ(rule["from"][2]["namespaceSelector"]["matchLabels"]["team"]
                .as<std::string>(""),
            "mon");
  EXPECT_EQ(rule["ports"][0]["port"].as<int>(0), 32766);
}

// Uninstall, and only uninstall, restores kube-scheduler: a pre-delete
// hook Job, one pod per control-plane node, with the same narrow mounts.
TEST_F(SchedulerExtenderChartTest, UninstallHookRestoresOnEveryControlPlane) {
  auto objects = Render({"--set", "configManager.controlPlaneNodes=3"});
  YAML::Node job = FindObject(objects, "Job", "gcushare-config-restore");
  ASSERT_TRUE(job.IsMap());
  EXPECT_EQ(job["metadata"]["annotations"]["helm.sh/hook"].as<std::string>(""),
            "pre-delete");
  EXPECT_EQ(job["spec"]["completions"].as<int>(0), 3);
  EXPECT_EQ(job["spec"]["parallelism"].as<int>(0), 3);
  const YAML::Node pod = job["spec"]["template"]["spec"];
  EXPECT_TRUE(pod["nodeSelector"]["node-role.kubernetes.io/control-plane"]);
  EXPECT_EQ(
      pod["affinity"]["podAntiAffinity"]
         ["requiredDuringSchedulingIgnoredDuringExecution"][0]["topologyKey"]
             .as<std::string>(""),
      "kubernetes.io/hostname");
  YAML::Node c = FindContainer(job, "restore");
  ASSERT_TRUE(c.IsMap());
  std::vector<std::string> args = Strings(c["args"]);
  ASSERT_FALSE(args.empty());
  EXPECT_EQ(args[0], "restore");
  EXPECT_THAT(
      args,
      Contains("--manifest=/etc/kubernetes/manifests/kube-scheduler.yaml"));
  EXPECT_EQ(HostPathMountedAt(job, c, "/etc/kubernetes/manifests"),
            "/etc/kubernetes/manifests");
  EXPECT_EQ(HostPathMountedAt(job, c, "/etc/kubernetes"), "");
  ExpectRestricted(c);
  EXPECT_FALSE(FindObject(Render({"--set", "configManager.enabled=false"}),
                          "Job", "gcushare-config-restore")
                   .IsMap());
}

}  // namespace
}  // namespace gcushare::testing
