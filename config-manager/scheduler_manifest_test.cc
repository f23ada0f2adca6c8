#include "config-manager/scheduler_manifest.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <string>

#include "config-manager/yaml_text.h"
#include "testing/files.h"
#include "testing/subprocess.h"

namespace gcushare::config_manager {
namespace {

using testing::ReadFileOrEmpty;
using testing::RunfilePath;

std::string Testdata(const std::string& name) {
  std::string text =
      ReadFileOrEmpty(RunfilePath("config-manager/testdata/" + name));
  EXPECT_FALSE(text.empty()) << name;
  return text;
}

TEST(SchedulerManifestTest, InspectsKubeadmManifests) {
  struct Case {
    const char* file;
    const char* image;
    const char* config;
    const char* config_host;
  };
  const Case cases[] = {
      {"kube-scheduler-1.22.yaml", "k8s.gcr.io/kube-scheduler:v1.22.17", "",
       ""},
      {"kube-scheduler-1.24.yaml", "k8s.gcr.io/kube-scheduler:v1.24.17", "",
       ""},
      {"kube-scheduler-1.28.yaml", "registry.k8s.io/kube-scheduler:v1.28.15",
       "", ""},
      {"kube-scheduler-1.31.yaml", "registry.k8s.io/kube-scheduler:v1.31.4", "",
       ""},
      {"kube-scheduler-1.27-config.yaml",
       "registry.k8s.io/kube-scheduler:v1.27.16", "/etc/scheduler/config.yaml",
       "/etc/kubernetes/scheduler-custom/config.yaml"},
  };
  for (const Case& c : cases) {
    auto facts = InspectManifest(Testdata(c.file), c.file);
    ASSERT_TRUE(facts.ok()) << c.file << ": " << facts.status().ToString();
    EXPECT_EQ(facts->image, c.image) << c.file;
    EXPECT_EQ(facts->config_path, c.config) << c.file;
    EXPECT_EQ(facts->config_host_path, c.config_host) << c.file;
    EXPECT_EQ(facts->kubeconfig, "/etc/kubernetes/scheduler.conf") << c.file;
    EXPECT_TRUE(facts->leader_elect) << c.file;
    EXPECT_FALSE(facts->has_marker) << c.file;
  }
}

TEST(SchedulerManifestTest, ReadsFlagsInBothSpellingsAndInArgs) {
  const std::string manifest =
      "apiVersion: v1\nkind: Pod\nmetadata:\n  name: s\nspec:\n"
      "  containers:\n  - name: sidecar\n    image: busybox\n"
      "  - name: scheduler\n    image: my/kube-scheduler:v1.29.1\n"
      "    command: [/usr/local/bin/kube-scheduler]\n"
      "    args: [--leader-elect=false, --kubeconfig, /k.conf]\n";
  auto facts = InspectManifest(manifest, "m");
  ASSERT_TRUE(facts.ok()) << facts.status().ToString();
  EXPECT_EQ(facts->image, "my/kube-scheduler:v1.29.1");
  EXPECT_EQ(facts->kubeconfig, "/k.conf");
  EXPECT_FALSE(facts->leader_elect);
  EXPECT_TRUE(facts->config_path.empty());
}

TEST(SchedulerManifestTest, EditAddsFlagMountVolumeAndMarker) {
  for (const char* file :
       {"kube-scheduler-1.22.yaml", "kube-scheduler-1.24.yaml",
        "kube-scheduler-1.28.yaml", "kube-scheduler-1.31.yaml"}) {
    const std::string original = Testdata(file);
    ManifestEdit edit;
    edit.config_path = "/etc/kubernetes/gcushare/config/scheduler-config.yaml";
    edit.mount_dir = "/etc/kubernetes/gcushare/config";
    edit.marker = "fnv1a64-0123456789abcdef";
    auto edited = EditManifest(original, file, edit);
    ASSERT_TRUE(edited.ok()) << file << ": " << edited.status().ToString();

    auto facts = InspectManifest(*edited, file);
    ASSERT_TRUE(facts.ok()) << *edited;
    EXPECT_EQ(facts->config_path, edit.config_path) << file;
    EXPECT_EQ(facts->config_host_path, edit.config_path) << file;
    EXPECT_TRUE(facts->has_marker) << file;

    auto pod = ParseYamlMap(*edited, file);
    auto before = ParseYamlMap(original, file);
    ASSERT_TRUE(pod.ok() && before.ok());
    const YAML::Node c = (*pod)["spec"]["containers"][0];
    const YAML::Node old_c = (*before)["spec"]["containers"][0];
    // The flag is appended to the command; the original flags stay.
    ASSERT_EQ(c["command"].size(), old_c["command"].size() + 1) << file;
    EXPECT_EQ(c["command"][c["command"].size() - 1].Scalar(),
              "--config=" + edit.config_path);
    // Mount and volume, read-only, same path on both sides.
    const YAML::Node mount = c["volumeMounts"][c["volumeMounts"].size() - 1];
    EXPECT_EQ(mount["name"].Scalar(), kConfigVolumeName);
    EXPECT_EQ(mount["mountPath"].Scalar(), edit.mount_dir);
    EXPECT_TRUE(mount["readOnly"].as<bool>());
    const YAML::Node volumes = (*pod)["spec"]["volumes"];
    const YAML::Node volume = volumes[volumes.size() - 1];
    EXPECT_EQ(volume["name"].Scalar(), kConfigVolumeName);
    EXPECT_EQ(volume["hostPath"]["path"].Scalar(), edit.mount_dir);
    EXPECT_EQ(volumes.size(), (*before)["spec"]["volumes"].size() + 1);
    // The marker is a string; the rest keeps its types and values.
    const YAML::Node marker =
        (*pod)["metadata"]["annotations"][std::string(kMarkerAnnotation)];
    EXPECT_EQ(marker.Scalar(), edit.marker);
    EXPECT_EQ(c["image"].Scalar(), old_c["image"].Scalar());
    EXPECT_EQ(c["livenessProbe"]["httpGet"]["port"].as<int>(), 10259);
    EXPECT_EQ(c["livenessProbe"]["httpGet"]["port"].Tag(), "?");
    EXPECT_TRUE((*pod)["metadata"]["creationTimestamp"].IsNull());
    EXPECT_TRUE((*pod)["spec"]["hostNetwork"].as<bool>());
    EXPECT_EQ((*pod)["spec"]["priorityClassName"].Scalar(),
              (*before)["spec"]["priorityClassName"].Scalar());
    if ((*before)["status"]) {
      EXPECT_TRUE((*pod)["status"].IsMap());
    }
    // The same edit of the same original gives the same bytes.
    EXPECT_EQ(*EditManifest(original, file, edit), *edited);
  }
}

TEST(SchedulerManifestTest, OneParseInspectsThenEdits) {
  // Inspecting a parsed manifest only reads it: an edit of the same tree
  // afterwards gives what the edit of the text gives.
  ManifestEdit edit;
  edit.config_path = "/etc/kubernetes/gcushare/config/scheduler-config.yaml";
  edit.mount_dir = "/etc/kubernetes/gcushare/config";
  edit.marker = "m";
  const std::string odd =
      "kind: Pod\nmetadata: [a]\nspec:\n  containers:\n"
      "  - name: kube-scheduler\n    command: [kube-scheduler, --v=2]\n";
  for (const std::string& text :
       {Testdata("kube-scheduler-1.28.yaml"),
        Testdata("kube-scheduler-1.27-config.yaml"), odd}) {
    StatusOr<YAML::Node> pod = ParseYamlMap(text, "m");
    ASSERT_TRUE(pod.ok()) << text;
    StatusOr<ManifestFacts> from_tree = InspectManifest(*pod, "m");
    StatusOr<ManifestFacts> from_text = InspectManifest(text, "m");
    ASSERT_EQ(from_tree.status(), from_text.status());
    if (from_tree.ok()) {
      EXPECT_EQ(from_tree->image, from_text->image);
      EXPECT_EQ(from_tree->config_path, from_text->config_path);
      EXPECT_EQ(from_tree->has_marker, from_text->has_marker);
    }
    StatusOr<std::string> edited = EditManifest(*pod, "m", edit);
    StatusOr<std::string> expected = EditManifest(text, "m", edit);
    ASSERT_EQ(edited.status(), expected.status()) << text;
    if (expected.ok()) {
      EXPECT_EQ(*edited, *expected);
      // The edit went into the caller's tree.
      EXPECT_EQ(EmitYaml(*pod), *expected);
    }
  }
}

TEST(SchedulerManifestTest, MarkerOnlyEditForAnExistingConfig) {
  const std::string original = Testdata("kube-scheduler-1.27-config.yaml");
  ManifestEdit edit;
  edit.marker = "fnv1a64-1";
  auto edited = EditManifest(original, "m", edit);
  ASSERT_TRUE(edited.ok()) << edited.status().ToString();
  auto facts = InspectManifest(*edited, "m");
  ASSERT_TRUE(facts.ok());
  EXPECT_TRUE(facts->has_marker);
  EXPECT_EQ(facts->config_path, "/etc/scheduler/config.yaml");
  auto pod = ParseYamlMap(*edited, "m");
  EXPECT_EQ((*pod)["spec"]["volumes"].size(), 2u);

  // Adding a second --config is refused.
  edit.config_path = "/x/c.yaml";
  edit.mount_dir = "/x";
  auto twice = EditManifest(original, "m", edit);
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.status().message().find("already has --config"),
            std::string::npos);
}

TEST(SchedulerManifestTest, FlagGoesToArgsWhenCommandIsBare) {
  const std::string manifest =
      "apiVersion: v1\nkind: Pod\nmetadata:\n  name: s\nspec:\n"
      "  containers:\n  - name: kube-scheduler\n"
      "    image: registry.k8s.io/kube-scheduler:v1.30.0\n"
      "    command: [kube-scheduler]\n";
  ManifestEdit edit{"/c/s.yaml", "/c", "m1"};
  auto edited = EditManifest(manifest, "m", edit);
  ASSERT_TRUE(edited.ok()) << edited.status().ToString();
  auto pod = ParseYamlMap(*edited, "m");
  const YAML::Node c = (*pod)["spec"]["containers"][0];
  EXPECT_EQ(c["command"].size(), 1u);
  ASSERT_EQ(c["args"].size(), 1u);
  EXPECT_EQ(c["args"][0].Scalar(), "--config=/c/s.yaml");
  EXPECT_EQ((*pod)["spec"]["volumes"].size(), 1u);
}

// Found by //fuzz:scheduler_manifest_fuzzer: a bare --config ending the
// list was taken for no flag; the edit appended --config=..., which the
// bare one then took as its value. It counts as present: inspecting reads
// an empty path, editing refuses and changes nothing.
TEST(SchedulerManifestTest, BareConfigFlagAtTheEndIsPresent) {
  const std::string manifest =
      "apiVersion: v1\nkind: Pod\nmetadata:\n  name: s\nspec:\n"
      "  containers:\n  - name: kube-scheduler\n"
      "    image: registry.k8s.io/kube-scheduler:v1.30.0\n"
      "    command: [kube-scheduler, --v=2, --config]\n";
  auto facts = InspectManifest(manifest, "m");
  ASSERT_TRUE(facts.ok()) << facts.status().ToString();
  EXPECT_EQ(facts->config_path, "");
  ManifestEdit edit{"/c/s.yaml", "/c", "m1"};
  auto edited = EditManifest(manifest, "m", edit);
  ASSERT_FALSE(edited.ok());
  EXPECT_NE(edited.status().message().find("already has --config"),
            std::string::npos)
      << edited.status().message();
}

TEST(SchedulerManifestTest, RejectsWhatItCannotEdit) {
  struct Case {
    std::string text;
    std::string message;
  };
  const Case cases[] = {
      {"apiVersion: v1\nkind: Service\nmetadata: {name: s}\n",
       "kind is not Pod"},
      {"apiVersion: v1\nkind: Pod\nmetadata: {name: s}\nspec: {}\n",
       "spec.containers is missing"},
      {"apiVersion: v1\nkind: Pod\nmetadata: {name: s}\nspec:\n"
       "  containers: [{name: etcd, command: [etcd]}]\n",
       "no kube-scheduler container"},
      {"apiVersion: v1\nkind: Pod\nmetadata: {name: s}\nspec:\n"
       "  containers:\n  - name: kube-scheduler\n"
       "    command: [kube-scheduler, --config=/etc/s/c.yaml]\n"
       "    volumeMounts: [{name: cfg, mountPath: /etc/s}]\n"
       "  volumes: [{name: cfg, configMap: {name: c}}]\n",
       "not on a hostPath volume"},
      // Found by //fuzz:scheduler_manifest_fuzzer: a nameless mount matched
      // a nameless volume, and its hostPath, a string, was read as a map
      // (the error was yaml-cpp's "operator[] call on a scalar").
      {"apiVersion: v1\nkind: Pod\nmetadata: {name: s}\nspec:\n"
       "  containers:\n  - name: kube-scheduler\n"
       "    command: [kube-scheduler, --config=/etc/s/c.yaml]\n"
       "    volumeMounts: [{mountPath: /etc/s}]\n"
       "  volumes: [{hostPath: /etc/s}]\n",
       "--config=/etc/s/c.yaml is not on a hostPath volume"},
      {"apiVersion: v1\nkind: Pod\nmetadata: {name: s}\nspec:\n"
       "  containers:\n  - name: kube-scheduler\n"
       "    command: [kube-scheduler, --config=/etc/s/c.yaml]\n"
       "    volumeMounts: [{name: cfg, mountPath: /etc/s}]\n"
       "  volumes: [{name: cfg, hostPath: /etc/s}]\n",
       "--config=/etc/s/c.yaml is not on a hostPath volume"},
      {"kind: Pod\nspec: [\n", "m.yaml"},
      {"apiVersion: v1\nkind: Pod\nmetadata: {name: s}\nspec:\n"
       "  containers:\n  - name: kube-scheduler\n"
       "    command: [kube-scheduler]\n"
       "    volumeMounts: [{name: k, mountPath: /etc/k}, --leader-elect]\n",
       "volumeMounts[1] is not a map"},
      {"apiVersion: v1\nkind: Pod\nmetadata: {name: s}\nspec:\n"
       "  containers: [{name: kube-scheduler, command: [kube-scheduler]}]\n"
       "  volumes: [k]\n",
       "spec.volumes[0] is not a map"},
  };
  for (const Case& c : cases) {
    auto facts = InspectManifest(c.text, "m.yaml");
    ASSERT_FALSE(facts.ok()) << c.text;
    EXPECT_EQ(facts.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(facts.status().message().find(c.message), std::string::npos)
        << facts.status().message();
  }
}

// Found by //fuzz:scheduler_manifest_fuzzer: an edit of a manifest whose
// volumeMounts held a scalar succeeded and wrote a manifest that its own
// inspection (and kubelet) rejects. Now the edit refuses it.
TEST(SchedulerManifestTest, EditRefusesMountListsItCannotRead) {
  const std::string text =
      "apiVersion: v1\nkind: Pod\nmetadata: {name: s}\nspec:\n"
      "  containers:\n  - name: kube-scheduler\n"
      "    command: [kube-scheduler]\n"
      "    volumeMounts: [--bind-address=127.0.0.1]\n";
  ManifestEdit edit;
  edit.config_path = "/etc/kubernetes/gcushare/scheduler-config.yaml";
  edit.mount_dir = "/etc/kubernetes/gcushare";
  edit.marker = "m";
  StatusOr<std::string> edited = EditManifest(text, "m.yaml", edit);
  ASSERT_FALSE(edited.ok()) << *edited;
  EXPECT_EQ(edited.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(edited.status().message().find("volumeMounts[0] is not a map"),
            std::string::npos)
      << edited.status().message();
}

}  // namespace
}  // namespace gcushare::config_manager
