#include "config-manager/config_manager.h"

#include <gtest/gtest.h>

#include <string>

#include "config-manager/scheduler_manifest.h"
#include "config-manager/testing/fake_file_system.h"
#include "config-manager/yaml_text.h"
#include "testing/files.h"
#include "testing/subprocess.h"

namespace gcushare::config_manager {
namespace {

using testing::ReadFileOrEmpty;
using testing::RunfilePath;

constexpr char kManifest[] = "/etc/kubernetes/manifests/kube-scheduler.yaml";
constexpr char kUrl[] = "http://10.96.0.50:32766/gcushare-scheduler";
constexpr char kUserConfig[] = "/etc/kubernetes/scheduler-custom/config.yaml";

std::string Testdata(const std::string& name) {
  std::string text =
      ReadFileOrEmpty(RunfilePath("config-manager/testdata/" + name));
  EXPECT_FALSE(text.empty()) << name;
  return text;
}

// Our contract entry alone (the plain-pod entry, on by default, is
// tested in scheduler_config_test.cc).
ConfigManagerOptions Options(const std::string& url = kUrl) {
  ConfigManagerOptions options;
  options.entry.url_prefix = url;
  options.entry.rank_plain_pods = false;
  return options;
}

std::string Contents(FakeFileSystem& fs, const std::string& path) {
  auto it = fs.files().find(path);
  return it == fs.files().end() ? "<missing>" : it->second.contents;
}

// Kubeadm manifests without --config, per Kubernetes version: the config
// manager writes its own configuration with the version's apiVersion.
TEST(ConfigManagerTest, ApplyIdempotentRestoreByteExactPerVersion) {
  struct Case {
    const char* file;
    const char* api;
  };
  for (const Case& c : {Case{"kube-scheduler-1.22.yaml", "v1beta2"},
                        Case{"kube-scheduler-1.24.yaml", "v1beta3"},
                        Case{"kube-scheduler-1.28.yaml", "v1"},
                        Case{"kube-scheduler-1.31.yaml", "v1"}}) {
    SCOPED_TRACE(c.file);
    const std::string original = Testdata(c.file);
    FakeFileSystem fs;
    fs.Put(kManifest, original, 0600);
    ConfigManager manager(&fs, Options());

    auto applied = manager.Apply();
    ASSERT_TRUE(applied.ok()) << applied.status().ToString();
    EXPECT_TRUE(applied->changed);
    EXPECT_EQ(applied->api_version,
              std::string("kubescheduler.config.k8s.io/") + c.api);
    EXPECT_EQ(applied->config_path, manager.OwnConfigPath());
    // Backup first, then the configuration, then the manifest.
    EXPECT_EQ(fs.log(),
              (std::vector<std::string>{"write " + manager.ManifestBackupPath(),
                                        "write " + manager.OwnConfigPath(),
                                        "write " + std::string(kManifest)}));
    EXPECT_EQ(Contents(fs, manager.ManifestBackupPath()), original);
    EXPECT_EQ(fs.files()[manager.ManifestBackupPath()].mode, 0600u);
    EXPECT_EQ(fs.files()[kManifest].mode, 0600u);

    const std::string config = Contents(fs, manager.OwnConfigPath());
    auto parsed = ParseYamlMap(config, "config");
    ASSERT_TRUE(parsed.ok()) << config;
    EXPECT_EQ((*parsed)["apiVersion"].Scalar(), applied->api_version);
    EXPECT_EQ((*parsed)["clientConnection"]["kubeconfig"].Scalar(),
              "/etc/kubernetes/scheduler.conf");
    EXPECT_TRUE((*parsed)["leaderElection"]["leaderElect"].as<bool>());
    ASSERT_EQ((*parsed)["extenders"].size(), 1u);
    EXPECT_EQ((*parsed)["extenders"][0]["urlPrefix"].Scalar(), kUrl);

    auto facts = InspectManifest(Contents(fs, kManifest), kManifest);
    ASSERT_TRUE(facts.ok());
    EXPECT_TRUE(facts->has_marker);
    EXPECT_EQ(facts->config_path, manager.OwnConfigPath());

    // Twice: nothing is written.
    const std::string edited = Contents(fs, kManifest);
    fs.log().clear();
    auto again = manager.Apply();
    ASSERT_TRUE(again.ok()) << again.status().ToString();
    EXPECT_FALSE(again->changed);
    EXPECT_TRUE(fs.log().empty());
    EXPECT_EQ(Contents(fs, kManifest), edited);

    // Restore: the exact bytes, and nothing of ours left.
    auto restored = manager.Restore();
    ASSERT_TRUE(restored.ok()) << restored.status().ToString();
    EXPECT_TRUE(*restored);
    EXPECT_EQ(Contents(fs, kManifest), original);
    EXPECT_EQ(fs.files()[kManifest].mode, 0600u);
    EXPECT_EQ(fs.files().size(), 1u);
    auto nothing = manager.Restore();
    ASSERT_TRUE(nothing.ok());
    EXPECT_FALSE(*nothing);
    EXPECT_EQ(Contents(fs, kManifest), original);
  }
}

TEST(ConfigManagerTest, VersionOptionOverridesTheImage) {
  FakeFileSystem fs;
  fs.Put(kManifest, Testdata("kube-scheduler-1.31.yaml"));
  ConfigManagerOptions options = Options();
  options.kubernetes_version = KubeVersion{1, 23};
  auto applied = ConfigManager(&fs, options).Apply();
  ASSERT_TRUE(applied.ok()) << applied.status().ToString();
  EXPECT_EQ(applied->api_version, "kubescheduler.config.k8s.io/v1beta3");
}

// kube-scheduler already reads its own file: our entry joins its
// extenders, the file keeps its apiVersion, and both files come back.
TEST(ConfigManagerTest, ExistingConfigKeepsOtherExtenders) {
  const std::string manifest = Testdata("kube-scheduler-1.27-config.yaml");
  const std::string user = Testdata("scheduler-config-custom.yaml");
  FakeFileSystem fs;
  fs.Put(kManifest, manifest, 0600);
  fs.Put(kUserConfig, user, 0640);
  ConfigManager manager(&fs, Options());

  auto applied = manager.Apply();
  ASSERT_TRUE(applied.ok()) << applied.status().ToString();
  EXPECT_TRUE(applied->changed);
  EXPECT_EQ(applied->config_path, kUserConfig);
  EXPECT_EQ(applied->api_version, "kubescheduler.config.k8s.io/v1beta3");
  EXPECT_EQ(fs.files().count(manager.OwnConfigPath()), 0u);
  EXPECT_EQ(Contents(fs, manager.ConfigBackupPath()), user);
  EXPECT_EQ(Contents(fs, manager.ConfigBackupTargetPath()), kUserConfig);
  EXPECT_EQ(fs.files()[kUserConfig].mode, 0640u);

  auto config = ParseYamlMap(Contents(fs, kUserConfig), "user");
  ASSERT_TRUE(config.ok());
  ASSERT_EQ((*config)["extenders"].size(), 2u);
  EXPECT_EQ((*config)["extenders"][0]["urlPrefix"].Scalar(),
            "http://127.0.0.1:8888/other");
  EXPECT_EQ((*config)["extenders"][1]["urlPrefix"].Scalar(), kUrl);
  EXPECT_EQ((*config)["profiles"][0]["schedulerName"].Scalar(),
            "default-scheduler");

  // The manifest only gets the marker (kubelet restarts kube-scheduler).
  auto facts = InspectManifest(Contents(fs, kManifest), kManifest);
  ASSERT_TRUE(facts.ok());
  EXPECT_TRUE(facts->has_marker);
  EXPECT_EQ(facts->config_path, "/etc/scheduler/config.yaml");

  fs.log().clear();
  auto again = manager.Apply();
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_FALSE(again->changed);
  EXPECT_TRUE(fs.log().empty()) << fs.log()[0];

  auto restored = manager.Restore();
  ASSERT_TRUE(restored.ok()) << restored.status().ToString();
  EXPECT_TRUE(*restored);
  EXPECT_EQ(Contents(fs, kManifest), manifest);
  EXPECT_EQ(Contents(fs, kUserConfig), user);
  EXPECT_EQ(fs.files()[kUserConfig].mode, 0640u);
  EXPECT_EQ(fs.files().size(), 2u);
}

// A new extender URL (the Service was recreated) rewrites the configuration
// and the marker, from the originals: restore still gives the originals.
TEST(ConfigManagerTest, NewUrlReappliesFromTheOriginals) {
  const std::string original = Testdata("kube-scheduler-1.28.yaml");
  FakeFileSystem fs;
  fs.Put(kManifest, original);
  ASSERT_TRUE(ConfigManager(&fs, Options()).Apply().ok());
  const std::string first_manifest = Contents(fs, kManifest);

  ConfigManager moved(&fs,
                      Options("http://10.96.7.7:32766/gcushare-scheduler"));
  auto applied = moved.Apply();
  ASSERT_TRUE(applied.ok()) << applied.status().ToString();
  EXPECT_TRUE(applied->changed);
  EXPECT_NE(Contents(fs, kManifest), first_manifest);
  EXPECT_NE(Contents(fs, moved.OwnConfigPath()).find("10.96.7.7"),
            std::string::npos);
  EXPECT_EQ(Contents(fs, moved.ManifestBackupPath()), original);
  // Still one --config and one volume of ours.
  auto pod = ParseYamlMap(Contents(fs, kManifest), "m");
  ASSERT_TRUE(pod.ok());
  EXPECT_EQ((*pod)["spec"]["volumes"].size(), 2u);

  ASSERT_TRUE(moved.Restore().ok());
  EXPECT_EQ(Contents(fs, kManifest), original);
}

// kubeadm upgrade rewrites the manifest without our marker: that is the new
// original (new version, new apiVersion), and restore gives it back.
TEST(ConfigManagerTest, RewrittenManifestIsTheNewOriginal) {
  const std::string old_manifest = Testdata("kube-scheduler-1.24.yaml");
  const std::string new_manifest = Testdata("kube-scheduler-1.28.yaml");
  FakeFileSystem fs;
  fs.Put(kManifest, old_manifest);
  ConfigManager manager(&fs, Options());
  ASSERT_TRUE(manager.Apply().ok());

  fs.Put(kManifest, new_manifest);
  auto applied = manager.Apply();
  ASSERT_TRUE(applied.ok()) << applied.status().ToString();
  EXPECT_TRUE(applied->changed);
  EXPECT_EQ(applied->api_version, "kubescheduler.config.k8s.io/v1");
  EXPECT_EQ(Contents(fs, manager.ManifestBackupPath()), new_manifest);

  ASSERT_TRUE(manager.Restore().ok());
  EXPECT_EQ(Contents(fs, kManifest), new_manifest);
}

// A failed write leaves a state that the next Apply or Restore completes.
TEST(ConfigManagerTest, RecoversFromAFailedWrite) {
  const std::string original = Testdata("kube-scheduler-1.31.yaml");
  for (const std::string& failing :
       {std::string(kManifest),
        std::string("/etc/kubernetes/gcushare/config/scheduler-config.yaml"),
        std::string("/etc/kubernetes/gcushare/backup/kube-scheduler.yaml")}) {
    SCOPED_TRACE(failing);
    FakeFileSystem fs;
    fs.Put(kManifest, original);
    ConfigManager manager(&fs, Options());
    fs.FailNextWrite(failing, InternalError("disk full"));
    auto failed = manager.Apply();
    ASSERT_FALSE(failed.ok());
    EXPECT_NE(failed.status().message().find("disk full"), std::string::npos);
    EXPECT_EQ(Contents(fs, kManifest), original);

    // Restoring now gives the original back (or finds nothing to do).
    FakeFileSystem copy = fs;
    ConfigManager restorer(&copy, Options());
    ASSERT_TRUE(restorer.Restore().ok());
    EXPECT_EQ(Contents(copy, kManifest), original);

    auto applied = manager.Apply();
    ASSERT_TRUE(applied.ok()) << applied.status().ToString();
    EXPECT_TRUE(InspectManifest(Contents(fs, kManifest), "m")->has_marker);
    ASSERT_TRUE(manager.Restore().ok());
    EXPECT_EQ(Contents(fs, kManifest), original);
    EXPECT_EQ(fs.files().size(), 1u);
  }
}

// Bad input: a clear error, and not one write.
TEST(ConfigManagerTest, BadInputChangesNothing) {
  struct Case {
    std::string manifest;
    std::string user_config;  // At kUserConfig when not empty.
    std::string message;
  };
  const Case cases[] = {
      {"", "", "no kube-scheduler manifest"},
      {"kind: Pod\nspec: [\n", "", kManifest},
      {Testdata("kube-scheduler-1.27-config.yaml"),
       Testdata("scheduler-config-binding-extender.yaml"), "already binds"},
      {Testdata("kube-scheduler-1.27-config.yaml"), "", "does not exist"},
      {"apiVersion: v1\nkind: Pod\nmetadata: {name: s}\nspec:\n"
       "  containers:\n  - name: kube-scheduler\n"
       "    image: registry.k8s.io/kube-scheduler\n"
       "    command: [kube-scheduler]\n",
       "", "--kubernetes-version"},
      {"apiVersion: v1\nkind: Pod\nmetadata: {name: s}\nspec:\n"
       "  containers:\n  - name: kube-scheduler\n"
       "    image: registry.k8s.io/kube-scheduler:v1.18.0\n"
       "    command: [kube-scheduler]\n",
       "", "1.19 or later"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.message);
    FakeFileSystem fs;
    if (!c.manifest.empty()) fs.Put(kManifest, c.manifest);
    if (!c.user_config.empty()) fs.Put(kUserConfig, c.user_config);
    auto applied = ConfigManager(&fs, Options()).Apply();
    ASSERT_FALSE(applied.ok());
    EXPECT_NE(applied.status().message().find(c.message), std::string::npos)
        << applied.status().message();
    EXPECT_TRUE(fs.log().empty()) << fs.log()[0];
  }
}

// Our marker without the backup: we cannot know the original; refuse.
TEST(ConfigManagerTest, MarkerWithoutBackupIsRefused) {
  const std::string original = Testdata("kube-scheduler-1.28.yaml");
  FakeFileSystem fs;
  fs.Put(kManifest, original);
  ConfigManager manager(&fs, Options());
  ASSERT_TRUE(manager.Apply().ok());
  fs.files().erase(manager.ManifestBackupPath());
  fs.log().clear();

  auto applied = manager.Apply();
  ASSERT_FALSE(applied.ok());
  EXPECT_EQ(applied.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(applied.status().message().find("backup"), std::string::npos);
  auto restored = manager.Restore();
  ASSERT_FALSE(restored.ok());
  EXPECT_EQ(restored.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_TRUE(fs.log().empty());
}

}  // namespace
}  // namespace gcushare::config_manager
