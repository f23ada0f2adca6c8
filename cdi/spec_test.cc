#include "cdi/spec.h"

#include "gtest/gtest.h"

namespace gcushare::cdi {
namespace {

using Json = nlohmann::json;

TEST(SpecTest, SerializesTheRealKeysAndOmitsEmptyFields) {
  Spec spec;
  spec.cdi_version = "0.7.0";
  spec.kind = "enflame.com/gcu";
  spec.annotations = {{"a", "b"}};
  Device device;
  device.name = "0";
  device.container_edits.env = {"ENFLAME_VISIBLE_DEVICES=0"};
  DeviceNode node;
  node.path = "/dev/gcu0";
  node.host_path = "/host/gcu0";
  node.type = "c";
  node.major = 234;
  node.minor = 0;
  node.file_mode = 0666;
  node.permissions = "rw";
  node.uid = 0;
  node.gid = 44;
  device.container_edits.device_nodes = {node};
  device.container_edits.mounts = {{"/h", "/c", "bind", {"ro"}}};
  device.container_edits.hooks = {
      {"createContainer", "/bin/hook", {"hook"}, {"X=1"}, 5}};
  device.container_edits.additional_gids = {44};
  spec.devices = {device};
  spec.container_edits.device_nodes = {{.path = "/dev/gcuctl"}};

  Json expected = Json::parse(R"({
    "cdiVersion": "0.7.0",
    "kind": "enflame.com/gcu",
    "annotations": {"a": "b"},
    "devices": [{
      "name": "0",
      "containerEdits": {
        "env": ["ENFLAME_VISIBLE_DEVICES=0"],
        "deviceNodes": [{"path": "/dev/gcu0", "hostPath": "/host/gcu0",
                         "type": "c", "major": 234, "minor": 0,
                         "fileMode": 438, "permissions": "rw", "uid": 0,
                         "gid": 44}],
        "mounts": [{"hostPath": "/h", "containerPath": "/c", "type": "bind",
                    "options": ["ro"]}],
        "hooks": [{"hookName": "createContainer", "path": "/bin/hook",
                   "args": ["hook"], "env": ["X=1"], "timeout": 5}],
        "additionalGids": [44]
      }
    }],
    "containerEdits": {"deviceNodes": [{"path": "/dev/gcuctl"}]}
  })");
  EXPECT_EQ(ToJson(spec), expected) << ToJson(spec).dump(2);
}

TEST(SpecTest, MinimalSpecHasNoOptionalKeys) {
  Spec spec;
  spec.cdi_version = "0.5.0";
  spec.kind = "enflame.com/gcu";
  Device device;
  device.name = "all";
  device.container_edits.env = {"A=1"};
  spec.devices = {device};
  EXPECT_EQ(ToJson(spec), Json::parse(R"({
    "cdiVersion": "0.5.0", "kind": "enflame.com/gcu",
    "devices": [{"name": "all", "containerEdits": {"env": ["A=1"]}}]
  })"));
}

TEST(SpecTest, DeviceEditsArePresentEvenWhenEmpty) {
  Spec spec;
  spec.devices = {Device{.name = "x"}};
  Json json = ToJson(spec);
  ASSERT_TRUE(json["devices"][0].contains("containerEdits"));
  EXPECT_EQ(json["devices"][0]["containerEdits"], Json::object());
  EXPECT_FALSE(json.contains("containerEdits"));
}

TEST(SpecTest, EmptyEditsAreEmpty) {
  ContainerEdits edits;
  EXPECT_TRUE(edits.empty());
  edits.additional_gids = {1};
  EXPECT_FALSE(edits.empty());
  EXPECT_EQ(ToJson(edits), Json::parse(R"({"additionalGids": [1]})"));
}

}  // namespace
}  // namespace gcushare::cdi
