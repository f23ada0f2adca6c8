#include "tests/peers/nri_runtime/apply.h"

#include <gtest/gtest.h>

#include "tests/peers/nri_runtime/fixtures.h"

namespace gcushare::nri_runtime {
namespace {

TEST(ApplyTest, EnvReplacesAppendsAndRemoves) {
  api::PodSandbox pod = MakePodSandbox("default", "p", 1);
  api::Container c = MakeContainer(pod, "main");
  c.add_env("ENFLAME_VISIBLE_DEVICES=5");
  c.add_env("DROP=me");
  api::ContainerAdjustment adjust;
  auto add = [&](const std::string& k, const std::string& v) {
    api::KeyValue* kv = adjust.add_env();
    kv->set_key(k);
    kv->set_value(v);
  };
  add("ENFLAME_VISIBLE_DEVICES", "1");
  add("NEW", "x");
  add("-DROP", "");
  api::Container out = ApplyAdjustment(c, adjust);
  std::vector<std::string> env(out.env().begin(), out.env().end());
  EXPECT_NE(std::find(env.begin(), env.end(), "ENFLAME_VISIBLE_DEVICES=1"),
            env.end());
  EXPECT_EQ(std::find(env.begin(), env.end(), "ENFLAME_VISIBLE_DEVICES=5"),
            env.end());
  EXPECT_NE(std::find(env.begin(), env.end(), "NEW=x"), env.end());
  EXPECT_EQ(std::find(env.begin(), env.end(), "DROP=me"), env.end());
  EXPECT_EQ(env.size(), c.env().size());
}

TEST(ApplyTest, DevicesAreReplacedRemovedAndAllowed) {
  api::PodSandbox pod = MakePodSandbox("default", "p", 1);
  api::Container c = MakeContainer(
      pod, "main",
      {CharDevice("/dev/gcu3", 238, 3), CharDevice("/dev/x", 1, 1)});
  api::ContainerAdjustment adjust;
  adjust.mutable_linux()->add_devices()->set_path("-/dev/gcu3");
  *adjust.mutable_linux()->add_devices() = CharDevice("/dev/gcu1", 238, 1);
  api::Container out = ApplyAdjustment(c, adjust);
  ASSERT_EQ(out.linux().devices_size(), 2);
  EXPECT_EQ(out.linux().devices(0).path(), "/dev/x");
  EXPECT_EQ(out.linux().devices(1).path(), "/dev/gcu1");
  const auto& rules = out.linux().resources().devices();
  const auto& last = rules.Get(rules.size() - 1);
  EXPECT_TRUE(last.allow());
  EXPECT_EQ(last.major().value(), 238);
  EXPECT_EQ(last.minor().value(), 1);

  nlohmann::ordered_json spec = ContainerSpecJson(out);
  EXPECT_EQ(spec["linux"]["devices"][1]["path"], "/dev/gcu1");
  EXPECT_EQ(spec["linux"]["devices"][1]["fileMode"], 0666);
  EXPECT_EQ(spec["process"]["args"][0], "/bin/sh");
}

// As containerd: a removed device keeps its cgroup allow rule, an added
// one gets NRI's access string, and rules sent by the plugin are ignored.
TEST(ApplyTest, DeviceCgroupRulesAsContainerdBuildsThem) {
  api::PodSandbox pod = MakePodSandbox("default", "p", 1);
  api::Container c =
      MakeContainer(pod, "main", {CharDevice("/dev/gcu3", 238, 3)});
  api::ContainerAdjustment adjust;
  adjust.mutable_linux()->add_devices()->set_path("-/dev/gcu3");
  *adjust.mutable_linux()->add_devices() = CharDevice("/dev/gcu1", 238, 1);
  api::LinuxDevice block = CharDevice("/dev/sdz", 8, 0);
  block.set_type("b");
  *adjust.mutable_linux()->add_devices() = block;
  api::LinuxDeviceCgroup* sent =
      adjust.mutable_linux()->mutable_resources()->add_devices();
  sent->set_allow(false);
  sent->set_type("c");
  sent->mutable_major()->set_value(238);
  sent->mutable_minor()->set_value(3);
  sent->set_access("rwm");
  nlohmann::ordered_json spec = ContainerSpecJson(ApplyAdjustment(c, adjust));
  nlohmann::ordered_json want = nlohmann::ordered_json::parse(R"([
    {"allow": false, "access": "rwm"},
    {"allow": true, "type": "c", "major": 238, "minor": 3, "access": "rwm"},
    {"allow": true, "type": "c", "major": 238, "minor": 1, "access": "rw"},
    {"allow": true, "type": "b", "major": 8, "minor": 0, "access": "rwm"}
  ])");
  EXPECT_EQ(spec["linux"]["resources"]["devices"], want)
      << spec["linux"]["resources"]["devices"].dump();
  ASSERT_EQ(spec["linux"]["devices"].size(), 2u);
  EXPECT_EQ(spec["linux"]["devices"][0]["path"], "/dev/gcu1");
}

TEST(ApplyTest, MountsAnnotationsArgs) {
  api::PodSandbox pod = MakePodSandbox("default", "p", 1);
  api::Container c = MakeContainer(pod, "main");
  api::ContainerAdjustment adjust;
  adjust.add_mounts()->set_destination("-/sys");
  (*adjust.mutable_annotations())["-io.kubernetes.container.hash"] = "";
  (*adjust.mutable_annotations())["added"] = "yes";
  adjust.add_args("");
  adjust.add_args("/bin/true");
  api::Container out = ApplyAdjustment(c, adjust);
  for (const auto& m : out.mounts()) EXPECT_NE(m.destination(), "/sys");
  EXPECT_EQ(out.mounts_size(), c.mounts_size() - 1);
  EXPECT_EQ(out.annotations().count("io.kubernetes.container.hash"), 0u);
  EXPECT_EQ(out.annotations().at("added"), "yes");
  ASSERT_EQ(out.args_size(), 1);
  EXPECT_EQ(out.args(0), "/bin/true");
}

TEST(FixturesTest, IdsAreStableAndShaped) {
  api::PodSandbox a = MakePodSandbox("ns", "p", 7);
  api::PodSandbox b = MakePodSandbox("ns", "p", 7);
  EXPECT_EQ(a.id(), b.id());
  EXPECT_EQ(a.id().size(), 64u);
  EXPECT_EQ(a.uid().size(), 36u);
  EXPECT_NE(MakePodSandbox("ns", "q", 7).id(), a.id());
  EXPECT_EQ(a.labels().at("io.kubernetes.pod.name"), "p");
}

}  // namespace
}  // namespace gcushare::nri_runtime
