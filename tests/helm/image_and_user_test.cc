// Both charts, rendered by the real helm 3.17: which user each container
// runs as (the release image's default is uid 65532, so every container
// says explicitly who it is), where the non-root extender logs, and the
// image reference (tag = appVersion, or a pinned digest).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/helm/chart_test.h"
#include "tests/helm/helm_runner.h"

namespace gcushare::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr char kDevicePlugin[] = "gcushare-device-plugin";
constexpr char kExtender[] = "gcushare-scheduler-extender";
constexpr char kDigest[] =
    "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

class ImageAndUserTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(HelmPath().empty()) << HelmMissingMessage();
  }

  static std::vector<YAML::Node> Render(
      const std::string& chart, const std::vector<std::string>& args = {}) {
    auto objects = RenderChart(chart, args);
    EXPECT_TRUE(objects.ok()) << objects.status().ToString();
    return objects.ok() ? *objects : std::vector<YAML::Node>{};
  }
};

// Every container of every workload (pod template) among `objects`.
std::vector<YAML::Node> Containers(const std::vector<YAML::Node>& objects) {
  std::vector<YAML::Node> out;
  for (const YAML::Node& o : objects) {
    // Only workloads have spec.template.spec (checked step by step: a
    // missing key of a const node is invalid, and indexing it throws).
    const YAML::Node spec = o["spec"];
    if (!spec.IsDefined() || !spec.IsMap()) continue;
    const YAML::Node tmpl = spec["template"];
    if (!tmpl.IsDefined() || !tmpl.IsMap()) continue;
    const YAML::Node pod = tmpl["spec"];
    for (const char* list : {"initContainers", "containers"}) {
      for (const YAML::Node& c : pod[list]) out.push_back(c);
    }
  }
  return out;
}

int RunAsUser(const YAML::Node& container) {
  return container["securityContext"]["runAsUser"].as<int>(-1);
}

TEST_F(ImageAndUserTest, ExtenderRunsAsNonRootAndLogsInItsPod) {
  auto objects = Render(kExtender);
  YAML::Node deploy =
      FindObject(objects, "Deployment", "gcushare-scheduler-extender");
  ASSERT_TRUE(deploy.IsMap());
  YAML::Node c = FindContainer(deploy, "scheduler-extender");
  ASSERT_TRUE(c.IsMap());
  ExpectRestricted(c);
  EXPECT_EQ(RunAsUser(c), 65532);
  EXPECT_EQ(c["securityContext"]["runAsGroup"].as<int>(-1), 65532);
  EXPECT_TRUE(c["securityContext"]["runAsNonRoot"].as<bool>(false));
  // Its log directory is a volume it can write (an emptyDir of its group),
  // not the root-owned host directory; no hostPath at all.
  const YAML::Node pod = deploy["spec"]["template"]["spec"];
  EXPECT_EQ(pod["securityContext"]["fsGroup"].as<int>(-1), 65532);
  ASSERT_EQ(c["volumeMounts"].size(), 1u);
  EXPECT_EQ(c["volumeMounts"][0]["mountPath"].as<std::string>(""),
            "/var/log/topscloud/gcushare");
  ASSERT_EQ(pod["volumes"].size(), 1u);
  EXPECT_TRUE(pod["volumes"][0]["emptyDir"].IsMap());
  EXPECT_FALSE(pod["volumes"][0]["hostPath"].IsDefined());
  EXPECT_EQ(HostPathMountedAt(deploy, c, "/var/log/topscloud/gcushare"), "");
}

TEST_F(ImageAndUserTest, OnlyTheComponentsThatNeedRootRunAsRoot) {
  // uid 0, said explicitly because the image's default user is 65532:
  // the device plugin (privileged: /dev, kubelet's socket directory), the
  // NRI plugin (containerd's root-only socket) and the config manager
  // (kubeadm's root-owned 0600 manifests), in its DaemonSet and its
  // uninstall Job.
  auto node = Render(kDevicePlugin);
  YAML::Node dp = FindContainer(
      FindObject(node, "DaemonSet", "gcushare-device-plugin"), "device-plugin");
  ASSERT_TRUE(dp.IsMap());
  EXPECT_EQ(RunAsUser(dp), 0);
  YAML::Node nri = FindContainer(
      FindObject(node, "DaemonSet", "gcushare-nri-plugin"), "nri-plugin");
  ASSERT_TRUE(nri.IsMap());
  EXPECT_EQ(RunAsUser(nri), 0);
  ExpectRestricted(nri);

  auto sched = Render(kExtender);
  YAML::Node cm =
      FindContainer(FindObject(sched, "DaemonSet", "gcushare-config-manager"),
                    "config-manager");
  ASSERT_TRUE(cm.IsMap());
  EXPECT_EQ(RunAsUser(cm), 0);
  YAML::Node restore = FindContainer(
      FindObject(sched, "Job", "gcushare-config-restore"), "restore");
  ASSERT_TRUE(restore.IsMap());
  EXPECT_EQ(RunAsUser(restore), 0);

  // And no container is left to the image's default.
  std::vector<YAML::Node> all = Containers(node);
  std::vector<YAML::Node> more = Containers(sched);
  all.insert(all.end(), more.begin(), more.end());
  ASSERT_EQ(all.size(), 5u);
  for (const YAML::Node& c : all) {
    EXPECT_NE(RunAsUser(c), -1) << c["name"].as<std::string>("");
  }
}

TEST_F(ImageAndUserTest, ImageIsTheReleaseTagOrThePinnedDigest) {
  for (const char* chart : {kDevicePlugin, kExtender}) {
    for (const YAML::Node& c : Containers(Render(chart))) {
      EXPECT_EQ(c["image"].as<std::string>(""), "gcushare/gcushare:0.1.0")
          << chart;
    }
    auto pinned =
        Render(chart, {"--set", std::string("image.digest=") + kDigest});
    ASSERT_FALSE(Containers(pinned).empty()) << chart;
    for (const YAML::Node& c : Containers(pinned)) {
      EXPECT_EQ(c["image"].as<std::string>(""),
                std::string("gcushare/gcushare@") + kDigest)
          << chart;
    }
  }
}

TEST_F(ImageAndUserTest, MalformedDigestIsRefused) {
  for (const char* chart : {kDevicePlugin, kExtender}) {
    for (const char* digest : {"latest", "sha256:abc", "md5:0123"}) {
      auto result = RunHelm({"template", "gcushare", ChartPath(chart), "--set",
                             std::string("image.digest=") + digest});
      ASSERT_TRUE(result.ok()) << result.status().ToString();
      EXPECT_NE(result->exit_code, 0) << chart << " " << digest;
      EXPECT_THAT(result->err, HasSubstr("digest")) << chart << " " << digest;
      EXPECT_THAT(result->out, IsEmpty()) << chart << " " << digest;
    }
  }
}

}  // namespace
}  // namespace gcushare::testing
