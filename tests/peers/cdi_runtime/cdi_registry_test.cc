#include "tests/peers/cdi_runtime/cdi_registry.h"

#include <gtest/gtest.h>

#include <string>

#include "testing/files.h"

namespace gcushare::peers::cdi_runtime {
namespace {

using ::gcushare::testing::MakeTempDir;
using ::gcushare::testing::WriteFileOrDie;

std::string Spec(const std::string& kind, const std::string& device,
                 const std::string& env) {
  return R"({"cdiVersion":"0.5.0","kind":")" + kind +
         R"(","devices":[{"name":")" + device +
         R"(","containerEdits":{"env":[")" + env + R"("]}}]})";
}

bool Contains(const std::vector<std::string>& errors, const std::string& part) {
  for (const std::string& error : errors) {
    if (error.find(part) != std::string::npos) return true;
  }
  return false;
}

TEST(EditsFromJsonTest, ReadsEveryModelledField) {
  auto edits = EditsFromJson(nlohmann::json::parse(R"({
    "env": ["A=1"],
    "deviceNodes": [{"path": "/dev/gcu0", "hostPath": "/dev/gcu0",
                     "type": "c", "major": 238, "minor": 0,
                     "permissions": "rw", "uid": 5, "gid": 6}],
    "mounts": [{"hostPath": "/h", "containerPath": "/c", "type": "bind",
                "options": ["ro"]}],
    "hooks": [{"hookName": "createContainer", "path": "/bin/h",
               "args": ["h"], "env": ["X=1"], "timeout": 3}],
    "additionalGids": [44]})"));
  ASSERT_TRUE(edits.ok()) << edits.status();
  EXPECT_EQ(edits->env, std::vector<std::string>{"A=1"});
  ASSERT_EQ(edits->device_nodes.size(), 1u);
  EXPECT_EQ(edits->device_nodes[0].type, "c");
  EXPECT_EQ(edits->device_nodes[0].major, 238);
  EXPECT_EQ(edits->device_nodes[0].minor, 0);
  EXPECT_EQ(edits->device_nodes[0].permissions, "rw");
  EXPECT_EQ(edits->device_nodes[0].uid, 5u);
  ASSERT_EQ(edits->mounts.size(), 1u);
  EXPECT_EQ(edits->mounts[0].options, std::vector<std::string>{"ro"});
  ASSERT_EQ(edits->hooks.size(), 1u);
  EXPECT_EQ(edits->hooks[0].timeout, 3);
  EXPECT_EQ(edits->additional_gids, std::vector<uint32_t>{44});
}

TEST(EditsFromJsonTest, WrongTypeIsAnErrorNotAThrow) {
  auto edits = EditsFromJson(nlohmann::json::parse(R"({"env": [1]})"));
  EXPECT_EQ(edits.status().code(), StatusCode::kInvalidArgument);
}

TEST(LoadCdiRegistryTest, LoadsJsonAndYamlAndQualifiesNames) {
  std::string dir = MakeTempDir();
  WriteFileOrDie(dir + "/a.json", Spec("k8s.gcu.enflame.com/gcu", "u1-gcu-0",
                                       "ENFLAME_VISIBLE_DEVICES=0"));
  WriteFileOrDie(dir + "/b.yaml",
                 "cdiVersion: 0.5.0\nkind: vendor.com/x\ndevices:\n"
                 "- name: one\n  containerEdits:\n    env: [\"B=2\"]\n");
  WriteFileOrDie(dir + "/ignored.txt", "not a spec");
  CdiRegistry registry = LoadCdiRegistry({dir});
  EXPECT_TRUE(registry.errors.empty());
  ASSERT_EQ(registry.devices.size(), 2u);
  EXPECT_TRUE(registry.devices.count("k8s.gcu.enflame.com/gcu=u1-gcu-0"));
  EXPECT_TRUE(registry.devices.count("vendor.com/x=one"));
}

TEST(LoadCdiRegistryTest, InvalidFileIsRecordedAndTheOthersStillLoad) {
  std::string dir = MakeTempDir();
  WriteFileOrDie(dir + "/bad.json", R"({"cdiVersion":"0.5.0","kind":"x"})");
  WriteFileOrDie(dir + "/good.json", Spec("vendor.com/x", "d", "A=1"));
  CdiRegistry registry = LoadCdiRegistry({dir});
  EXPECT_TRUE(Contains(registry.errors, dir + "/bad.json"));
  EXPECT_TRUE(registry.devices.count("vendor.com/x=d"));
}

TEST(LoadCdiRegistryTest, SameNameInOneDirectoryIsAConflictAndDropped) {
  std::string dir = MakeTempDir();
  WriteFileOrDie(dir + "/a.json", Spec("vendor.com/x", "d", "A=1"));
  WriteFileOrDie(dir + "/b.json", Spec("vendor.com/x", "d", "A=2"));
  WriteFileOrDie(dir + "/c.json", Spec("vendor.com/x", "other", "A=3"));
  CdiRegistry registry = LoadCdiRegistry({dir});
  EXPECT_FALSE(registry.devices.count("vendor.com/x=d"));
  EXPECT_TRUE(registry.devices.count("vendor.com/x=other"));
  EXPECT_TRUE(
      Contains(registry.errors, "conflicting device \"vendor.com/x=d\""));
}

TEST(LoadCdiRegistryTest, LaterDirectoryOverridesEarlierSilently) {
  std::string low = MakeTempDir();
  std::string high = MakeTempDir();
  WriteFileOrDie(low + "/a.json", Spec("vendor.com/x", "d", "A=low"));
  WriteFileOrDie(high + "/a.json", Spec("vendor.com/x", "d", "A=high"));
  CdiRegistry registry = LoadCdiRegistry({low, high});
  EXPECT_TRUE(registry.errors.empty());
  ASSERT_TRUE(registry.devices.count("vendor.com/x=d"));
  EXPECT_EQ(registry.devices.at("vendor.com/x=d").edits.env,
            std::vector<std::string>{"A=high"});
  // And the other way round: the earlier directory does not win.
  registry = LoadCdiRegistry({high, low});
  EXPECT_EQ(registry.devices.at("vendor.com/x=d").edits.env,
            std::vector<std::string>{"A=low"});
}

TEST(LoadCdiRegistryTest, MissingDirectoryHasNoSpecs) {
  CdiRegistry registry = LoadCdiRegistry({MakeTempDir() + "/missing"});
  EXPECT_TRUE(registry.devices.empty());
  EXPECT_TRUE(registry.errors.empty());
}

}  // namespace
}  // namespace gcushare::peers::cdi_runtime
