#include "cdi/validator.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace gcushare::cdi {
namespace {

using Json = nlohmann::json;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// A valid spec of the shape we generate.
Json Base() {
  return Json::parse(R"({
    "cdiVersion": "0.5.0",
    "kind": "enflame.com/gcu",
    "devices": [
      {"name": "0", "containerEdits": {
        "env": ["ENFLAME_VISIBLE_DEVICES=0"],
        "deviceNodes": [{"path": "/dev/gcu0", "type": "c",
                         "major": 234, "minor": 0}]}},
      {"name": "all", "containerEdits": {
        "env": ["ENFLAME_VISIBLE_DEVICES=0"],
        "deviceNodes": [{"path": "/dev/gcu0"}]}}
    ],
    "containerEdits": {"deviceNodes": [{"path": "/dev/gcuctl"}]}
  })");
}

TEST(ValidatorTest, BaseSpecIsValid) {
  Status status = ValidateSpec(Base());
  EXPECT_TRUE(status.ok()) << status;
}

TEST(ValidatorTest, EveryFieldOfTheSchemaIsAccepted) {
  Json full = Json::parse(R"({
    "cdiVersion": "v1.1.0",
    "kind": "vendor.com/net.v2",
    "annotations": {"owner": "team"},
    "devices": [{
      "name": "dev:0",
      "annotations": {"a": "b"},
      "containerEdits": {
        "env": ["A=1", "EMPTY="],
        "deviceNodes": [{"path": "/dev/x", "hostPath": "/dev/y", "type": "b",
                         "major": 1, "minor": 2, "fileMode": 438,
                         "permissions": "rw", "uid": 0, "gid": 4294967295}],
        "mounts": [{"hostPath": "/h", "containerPath": "/c", "type": "bind",
                    "options": ["ro", "rbind"]}],
        "hooks": [{"hookName": "createContainer", "path": "/bin/hook",
                   "args": ["hook", "-v"], "env": ["X=y"], "timeout": 5}],
        "additionalGids": [0, 44],
        "intelRdt": {"closID": "c", "l3CacheSchema": "L3:0=f",
                     "memBwSchema": "MB:0=50", "schemata": ["L2:0=3"],
                     "enableMonitoring": true},
        "netDevices": [{"hostInterfaceName": "eth1", "name": "net0"}]
      }
    }]
  })");
  Status status = ValidateSpec(full);
  EXPECT_TRUE(status.ok()) << status;
}

TEST(ValidatorTest, ExactMessageNamesFieldPathAndRule) {
  Json spec = Base();
  spec["devices"].push_back(spec["devices"][0]);
  spec["devices"][2]["name"] = "2";
  spec["devices"][2]["containerEdits"]["deviceNodes"][0]["path"] = "dev/gcu0";
  Status status = ValidateSpec(spec);
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(),
            "devices[2].containerEdits.deviceNodes[0].path: \"dev/gcu0\" is "
            "not an absolute path");
}

TEST(ValidatorTest, NonObjectSpec) {
  EXPECT_EQ(ValidateSpec(Json::array()).message(),
            "spec: must be a map, got array");
  EXPECT_EQ(ValidateSpec(Json()).message(), "spec: must be a map, got null");
}

struct RuleCase {
  std::string name;
  std::string patch;  // JSON Patch applied to Base().
  std::string error;  // Expected message part; empty: must be valid.
};

class RuleTest : public ::testing::TestWithParam<RuleCase> {};

TEST_P(RuleTest, ValidOrBrokenAsExpected) {
  const RuleCase& c = GetParam();
  Json spec = Base().patch(Json::parse(c.patch));
  Status status = ValidateSpec(spec);
  if (c.error.empty()) {
    EXPECT_TRUE(status.ok()) << status << "\n" << spec.dump();
  } else {
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << spec.dump();
    EXPECT_THAT(status.message(), HasSubstr(c.error));
  }
}

// Shorthands for patch paths.
#define DEV0 "/devices/0/containerEdits"
#define NODE0 DEV0 "/deviceNodes/0"

INSTANTIATE_TEST_SUITE_P(
    Top, RuleTest,
    ::testing::Values(
        RuleCase{"UnknownTopField",
                 R"([{"op":"add","path":"/device","value":[]}])",
                 "device: unknown field (allowed here: cdiVersion, kind, "
                 "annotations, devices, containerEdits)"},
        RuleCase{"MissingVersion", R"([{"op":"remove","path":"/cdiVersion"}])",
                 "cdiVersion: is required"},
        RuleCase{"NullVersion",
                 R"([{"op":"replace","path":"/cdiVersion","value":null}])",
                 "cdiVersion: is required"},
        RuleCase{"VersionNotString",
                 R"([{"op":"replace","path":"/cdiVersion","value":5}])",
                 "cdiVersion: must be a string, got number"},
        RuleCase{"UnknownVersion",
                 R"([{"op":"replace","path":"/cdiVersion","value":"0.9.0"}])",
                 "cdiVersion: \"0.9.0\" is not a known CDI version (known: "
                 "0.1.0, 0.2.0"},
        RuleCase{"VPrefixTolerated",
                 R"([{"op":"replace","path":"/cdiVersion","value":"v0.5.0"}])",
                 ""},
        RuleCase{"NewerVersionIsFine",
                 R"([{"op":"replace","path":"/cdiVersion","value":"1.1.0"}])",
                 ""},
        RuleCase{"VersionBelowFeatures",
                 R"([{"op":"replace","path":"/cdiVersion","value":"0.4.0"}])",
                 "cdiVersion: \"0.4.0\" is too low: 0.5.0 is needed because "
                 "devices[0].name \"0\" does not start with a letter"},
        RuleCase{"VersionBelowEarliest",
                 R"([{"op":"replace","path":"/cdiVersion","value":"0.2.0"},
                     {"op":"replace","path":"/devices/0/name","value":"gcu0"}])",
                 "cdiVersion: \"0.2.0\" is too low: the earliest supported "
                 "version is 0.3.0"},
        RuleCase{"LetterNamesNeedOnly030",
                 R"([{"op":"replace","path":"/cdiVersion","value":"0.3.0"},
                     {"op":"replace","path":"/devices/0/name","value":"gcu0"}])",
                 ""},
        RuleCase{"MissingKind", R"([{"op":"remove","path":"/kind"}])",
                 "kind: is required"},
        RuleCase{"KindWithoutSlash",
                 R"([{"op":"replace","path":"/kind","value":"enflame.com"}])",
                 "kind: \"enflame.com\" is not a valid kind: must be "
                 "<vendor>/<class>"},
        RuleCase{"KindBadVendor",
                 R"([{"op":"replace","path":"/kind","value":"1x.com/gcu"}])",
                 "kind: \"1x.com/gcu\" is not a valid kind: vendor: must "
                 "start with a letter"},
        RuleCase{
            "DotInClassNeeds060",
            R"([{"op":"replace","path":"/kind","value":"enflame.com/gcu.v2"}])",
            "cdiVersion: \"0.5.0\" is too low: 0.6.0 is needed because "
            "kind \"enflame.com/gcu.v2\" has a '.' in its class"},
        RuleCase{
            "DotInClassAt060",
            R"([{"op":"replace","path":"/kind","value":"enflame.com/gcu.v2"},
                     {"op":"replace","path":"/cdiVersion","value":"0.6.0"}])",
            ""},
        RuleCase{"AnnotationsAt060",
                 R"([{"op":"add","path":"/annotations","value":{"a":"b"}},
                     {"op":"replace","path":"/cdiVersion","value":"0.6.0"}])",
                 ""},
        RuleCase{"AnnotationsBelow060",
                 R"([{"op":"add","path":"/annotations","value":{"a":"b"}}])",
                 "0.6.0 is needed because annotations are set"},
        RuleCase{"NullAnnotationsAreAbsent",
                 R"([{"op":"add","path":"/annotations","value":null}])", ""},
        RuleCase{"AnnotationNotString",
                 R"([{"op":"add","path":"/annotations","value":{"a":1}},
                     {"op":"replace","path":"/cdiVersion","value":"0.6.0"}])",
                 "annotations.a: must be a string, got number"},
        RuleCase{"AnnotationsNotMap",
                 R"([{"op":"add","path":"/annotations","value":["a"]}])",
                 "annotations: must be a map, got array"},
        RuleCase{"EmptyTopEditsAreFine",
                 R"([{"op":"replace","path":"/containerEdits","value":{}}])",
                 ""},
        RuleCase{"TopEditsNotMap",
                 R"([{"op":"replace","path":"/containerEdits","value":"x"}])",
                 "containerEdits: must be a map, got string"}),
    [](const ::testing::TestParamInfo<RuleCase>& info) {
      return info.param.name;
    });

INSTANTIATE_TEST_SUITE_P(
    Devices, RuleTest,
    ::testing::Values(
        RuleCase{"MissingDevices", R"([{"op":"remove","path":"/devices"}])",
                 "devices: is required"},
        RuleCase{"NoDevices",
                 R"([{"op":"replace","path":"/devices","value":[]}])",
                 "devices: must have at least one device"},
        RuleCase{"DevicesNotList",
                 R"([{"op":"replace","path":"/devices","value":{}}])",
                 "devices: must be a list, got object"},
        RuleCase{"DeviceNotMap",
                 R"([{"op":"replace","path":"/devices/1","value":"all"}])",
                 "devices[1]: must be a map, got string"},
        RuleCase{
            "UnknownDeviceField",
            R"([{"op":"add","path":"/devices/1/containeredits","value":{}}])",
            "devices[1].containeredits: unknown field (allowed here: "
            "name, annotations, containerEdits)"},
        RuleCase{"MissingName", R"([{"op":"remove","path":"/devices/1/name"}])",
                 "devices[1].name: is required"},
        RuleCase{"NameNotString",
                 R"([{"op":"replace","path":"/devices/1/name","value":1}])",
                 "devices[1].name: must be a string, got number"},
        RuleCase{
            "BadName",
            R"([{"op":"replace","path":"/devices/1/name","value":"GCU/1"}])",
            "devices[1].name: \"GCU/1\" is not a valid device name: '/' "
            "is not allowed"},
        RuleCase{"ColonInName",
                 R"([{"op":"replace","path":"/devices/1/name","value":"a:b"}])",
                 ""},
        RuleCase{"DuplicateName",
                 R"([{"op":"replace","path":"/devices/1/name","value":"0"}])",
                 "devices[1].name: \"0\" is also the name of devices[0] "
                 "(device names must be unique)"},
        RuleCase{"MissingEdits",
                 R"([{"op":"remove","path":"/devices/1/containerEdits"}])",
                 "devices[1].containerEdits: is required"},
        RuleCase{
            "EmptyEdits",
            R"([{"op":"replace","path":"/devices/1/containerEdits","value":{}}])",
            "devices[1].containerEdits: must not be empty"},
        RuleCase{"EditsWithOnlyEmptyLists",
                 R"([{"op":"replace","path":"/devices/1/containerEdits",
                      "value":{"env":[],"mounts":[]}}])",
                 "devices[1].containerEdits: must not be empty"},
        RuleCase{"EditsWithOnlyGids",
                 R"([{"op":"replace","path":"/devices/1/containerEdits",
                      "value":{"additionalGids":[5]}},
                     {"op":"replace","path":"/cdiVersion","value":"0.7.0"}])",
                 ""},
        RuleCase{
            "DeviceAnnotationNotString",
            R"([{"op":"add","path":"/devices/1/annotations","value":{"k":true}}])",
            "devices[1].annotations.k: must be a string, got boolean"}),
    [](const ::testing::TestParamInfo<RuleCase>& info) {
      return info.param.name;
    });

INSTANTIATE_TEST_SUITE_P(
    Edits, RuleTest,
    ::testing::Values(
        RuleCase{"SpellingTrapAdditionalGIDs",
                 R"([{"op":"add","path":")" DEV0
                 R"(/additionalGIDs","value":[1]}])",
                 "devices[0].containerEdits.additionalGIDs: unknown field"},
        RuleCase{"EnvEmptyValueIsFine",
                 R"([{"op":"add","path":")" DEV0 R"(/env/-","value":"A="}])",
                 ""},
        RuleCase{"EnvNoName",
                 R"([{"op":"add","path":")" DEV0 R"(/env/-","value":"=x"}])",
                 "devices[0].containerEdits.env[1]: \"=x\" must be NAME=VALUE "
                 "with a non-empty NAME"},
        RuleCase{"EnvNoEquals",
                 R"([{"op":"add","path":")" DEV0 R"(/env/-","value":"PATH"}])",
                 "env[1]: \"PATH\" must be NAME=VALUE"},
        RuleCase{"EnvNotString",
                 R"([{"op":"add","path":")" DEV0 R"(/env/-","value":7}])",
                 "env[1]: must be a string, got number"},
        RuleCase{"EnvNotList",
                 R"([{"op":"replace","path":")" DEV0 R"(/env","value":"A=1"}])",
                 "devices[0].containerEdits.env: must be a list, got string"},
        RuleCase{"NodeNotMap",
                 R"([{"op":"replace","path":")" NODE0
                 R"(","value":"/dev/gcu0"}])",
                 "deviceNodes[0]: must be a map, got string"},
        RuleCase{"NodeUnknownField",
                 R"([{"op":"add","path":")" NODE0 R"(/mode","value":1}])",
                 "deviceNodes[0].mode: unknown field"},
        RuleCase{"NodeMissingPath",
                 R"([{"op":"remove","path":")" NODE0 R"(/path"}])",
                 "devices[0].containerEdits.deviceNodes[0].path: is required"},
        RuleCase{"NodeRelativePath",
                 R"([{"op":"replace","path":")" NODE0
                 R"(/path","value":"gcu0"}])",
                 "deviceNodes[0].path: \"gcu0\" is not an absolute path"},
        RuleCase{"NodeHostPath",
                 R"([{"op":"add","path":")" NODE0
                 R"(/hostPath","value":"/dev/x"}])",
                 ""},
        RuleCase{"NodeEmptyHostPath",
                 R"([{"op":"add","path":")" NODE0 R"(/hostPath","value":""}])",
                 ""},
        RuleCase{"NodeRelativeHostPath",
                 R"([{"op":"add","path":")" NODE0 R"(/hostPath","value":"x"}])",
                 "deviceNodes[0].hostPath: \"x\" is not an absolute path"},
        RuleCase{"NodeEmptyType",
                 R"([{"op":"replace","path":")" NODE0 R"(/type","value":""}])",
                 ""},
        RuleCase{"NodePipeType",
                 R"([{"op":"replace","path":")" NODE0 R"(/type","value":"p"}])",
                 ""},
        RuleCase{"NodeBadType",
                 R"([{"op":"replace","path":")" NODE0
                 R"(/type","value":"char"}])",
                 "deviceNodes[0].type: \"char\" is not a device type"},
        RuleCase{"NodeNegativeMajor",
                 R"([{"op":"replace","path":")" NODE0 R"(/major","value":-1}])",
                 "deviceNodes[0].major: -1 is out of range"},
        RuleCase{"NodeFloatMinor",
                 R"([{"op":"replace","path":")" NODE0
                 R"(/minor","value":1.5}])",
                 "deviceNodes[0].minor: must be a non-negative 64-bit device "
                 "number"},
        RuleCase{"NodeStringMajor",
                 R"([{"op":"replace","path":")" NODE0
                 R"(/major","value":"234"}])",
                 "deviceNodes[0].major: must be a non-negative 64-bit device "
                 "number (0..9223372036854775807), got string"},
        RuleCase{"NodeHugeMajor",
                 R"([{"op":"replace","path":")" NODE0
                 R"(/major","value":9223372036854775808}])",
                 "is out of range"},
        RuleCase{"NodeUidMax",
                 R"([{"op":"add","path":")" NODE0
                 R"(/uid","value":4294967295}])",
                 ""},
        RuleCase{"NodeUidTooBig",
                 R"([{"op":"add","path":")" NODE0
                 R"(/uid","value":4294967296}])",
                 "deviceNodes[0].uid: 4294967296 is out of range for an "
                 "unsigned 32-bit integer"},
        RuleCase{"NodeNegativeGid",
                 R"([{"op":"add","path":")" NODE0 R"(/gid","value":-3}])",
                 "deviceNodes[0].gid: -3 is out of range"},
        RuleCase{"NodeFileModeString",
                 R"([{"op":"add","path":")" NODE0
                 R"(/fileMode","value":"0644"}])",
                 "deviceNodes[0].fileMode: must be an unsigned 32-bit integer"},
        RuleCase{"NodePermissions",
                 R"([{"op":"add","path":")" NODE0
                 R"(/permissions","value":"rwm"}])",
                 ""},
        RuleCase{"NodeEmptyPermissions",
                 R"([{"op":"add","path":")" NODE0
                 R"(/permissions","value":""}])",
                 ""},
        RuleCase{"NodeBadPermissions",
                 R"([{"op":"add","path":")" NODE0
                 R"(/permissions","value":"rwx"}])",
                 "deviceNodes[0].permissions: \"rwx\": \"x\" is not a "
                 "permission (only r, w and m)"},
        RuleCase{"NodeNonePermissionIsHeadOnly",
                 R"([{"op":"add","path":")" NODE0
                 R"(/permissions","value":"none"}])",
                 "\"n\" is not a permission"}),
    [](const ::testing::TestParamInfo<RuleCase>& info) {
      return info.param.name;
    });

// Mounts, hooks and the newer edit kinds, at the spec level (cdiVersion 1.1.0
// so that only the rule under test can fail).
#define V110 R"({"op":"replace","path":"/cdiVersion","value":"1.1.0"},)"

INSTANTIATE_TEST_SUITE_P(
    MoreEdits, RuleTest,
    ::testing::Values(
        RuleCase{"Mount",
                 "[" V110 R"({"op":"add","path":"/containerEdits/mounts",
            "value":[{"hostPath":"/h","containerPath":"/c","type":"bind",
                      "options":["ro"]}]}])",
                 ""},
        RuleCase{"MountWithoutContainerPath",
                 "[" V110 R"({"op":"add","path":"/containerEdits/mounts",
            "value":[{"hostPath":"/h"}]}])",
                 "containerEdits.mounts[0].containerPath: is required"},
        RuleCase{"MountEmptyHostPath",
                 "[" V110 R"({"op":"add","path":"/containerEdits/mounts",
            "value":[{"hostPath":"","containerPath":"/c"}]}])",
                 "containerEdits.mounts[0].hostPath: must not be empty"},
        RuleCase{"MountOptionNotString",
                 "[" V110 R"({"op":"add","path":"/containerEdits/mounts",
            "value":[{"hostPath":"/h","containerPath":"/c","options":[1]}]}])",
                 "containerEdits.mounts[0].options[0]: must be a string"},
        RuleCase{"MountUnknownField",
                 "[" V110 R"({"op":"add","path":"/containerEdits/mounts",
            "value":[{"hostPath":"/h","containerPath":"/c","readOnly":true}]}])",
                 "containerEdits.mounts[0].readOnly: unknown field"},
        RuleCase{"Hook", "[" V110 R"({"op":"add","path":"/containerEdits/hooks",
            "value":[{"hookName":"poststop","path":"/bin/x","args":["x"],
                      "env":["A=b"],"timeout":10}]}])",
                 ""},
        RuleCase{"HookBadName",
                 "[" V110 R"({"op":"add","path":"/containerEdits/hooks",
            "value":[{"hookName":"preStart","path":"/bin/x"}]}])",
                 "containerEdits.hooks[0].hookName: \"preStart\" is not a "
                 "hook name (one of prestart, createRuntime, createContainer, "
                 "startContainer, poststart, poststop)"},
        RuleCase{"HookMissingName",
                 "[" V110 R"({"op":"add","path":"/containerEdits/hooks",
            "value":[{"path":"/bin/x"}]}])",
                 "containerEdits.hooks[0].hookName: is required"},
        RuleCase{"HookRelativePath",
                 "[" V110 R"({"op":"add","path":"/containerEdits/hooks",
            "value":[{"hookName":"prestart","path":"bin/x"}]}])",
                 "containerEdits.hooks[0].path: \"bin/x\" is not an absolute "
                 "path"},
        RuleCase{"HookBadEnv",
                 "[" V110 R"({"op":"add","path":"/containerEdits/hooks",
            "value":[{"hookName":"prestart","path":"/x","env":["X"]}]}])",
                 "containerEdits.hooks[0].env[0]: \"X\" must be NAME=VALUE"},
        RuleCase{"HookTimeoutString",
                 "[" V110 R"({"op":"add","path":"/containerEdits/hooks",
            "value":[{"hookName":"prestart","path":"/x","timeout":"5s"}]}])",
                 "containerEdits.hooks[0].timeout: must be an integer"},
        RuleCase{
            "HookArgNotString",
            "[" V110 R"({"op":"add","path":"/containerEdits/hooks",
            "value":[{"hookName":"prestart","path":"/x","args":[["a"]]}]}])",
            "containerEdits.hooks[0].args[0]: must be a string, got array"},
        RuleCase{"Gids",
                 "[" V110
                 R"({"op":"add","path":"/containerEdits/additionalGids",
            "value":[0, 4294967295]}])",
                 ""},
        RuleCase{"GidNegative",
                 "[" V110
                 R"({"op":"add","path":"/containerEdits/additionalGids",
            "value":[5, -1]}])",
                 "containerEdits.additionalGids[1]: -1 is out of range"},
        RuleCase{"GidFloat",
                 "[" V110
                 R"({"op":"add","path":"/containerEdits/additionalGids",
            "value":[1.0]}])",
                 "containerEdits.additionalGids[0]: must be an unsigned 32-bit "
                 "integer (0..4294967295), got number"},
        RuleCase{
            "GidsNeed070",
            R"([{"op":"add","path":"/containerEdits/additionalGids",
            "value":[5]}])",
            "0.7.0 is needed because containerEdits.additionalGids is set"},
        RuleCase{"IntelRdt",
                 "[" V110 R"({"op":"add","path":"/containerEdits/intelRdt",
            "value":{"closID":"x","schemata":["L3:0=f"],"enableMonitoring":false}}])",
                 ""},
        RuleCase{"IntelRdtSpellingTrapSchema",
                 "[" V110 R"({"op":"add","path":"/containerEdits/intelRdt",
            "value":{"schema":["L3:0=f"]}}])",
                 "containerEdits.intelRdt.schema: unknown field"},
        RuleCase{"IntelRdtDroppedEnableCMT",
                 "[" V110 R"({"op":"add","path":"/containerEdits/intelRdt",
            "value":{"enableCMT":true}}])",
                 "containerEdits.intelRdt.enableCMT: unknown field"},
        RuleCase{"IntelRdtMonitoringNotBool",
                 "[" V110 R"({"op":"add","path":"/containerEdits/intelRdt",
            "value":{"enableMonitoring":"yes"}}])",
                 "containerEdits.intelRdt.enableMonitoring: must be true or "
                 "false, got string"},
        RuleCase{"IntelRdtClosIdNotString",
                 "[" V110 R"({"op":"add","path":"/containerEdits/intelRdt",
            "value":{"closID":1}}])",
                 "containerEdits.intelRdt.closID: must be a string"},
        RuleCase{"NetDevices",
                 "[" V110 R"({"op":"add","path":"/containerEdits/netDevices",
            "value":[{"hostInterfaceName":"eth1","name":"n1"},
                     {"hostInterfaceName":"eth2","name":"n2"}]}])",
                 ""},
        RuleCase{"NetDeviceMissingName",
                 "[" V110 R"({"op":"add","path":"/containerEdits/netDevices",
            "value":[{"hostInterfaceName":"eth1"}]}])",
                 "containerEdits.netDevices[0].name: is required"},
        RuleCase{"NetDeviceEmptyHost",
                 "[" V110 R"({"op":"add","path":"/containerEdits/netDevices",
            "value":[{"hostInterfaceName":"","name":"n"}]}])",
                 "containerEdits.netDevices[0].hostInterfaceName: must not be "
                 "empty"},
        RuleCase{"NetDeviceDuplicateName",
                 "[" V110 R"({"op":"add","path":"/containerEdits/netDevices",
            "value":[{"hostInterfaceName":"eth1","name":"n"},
                     {"hostInterfaceName":"eth2","name":"n"}]}])",
                 "containerEdits.netDevices[1].name: \"n\" is also used by "
                 "containerEdits.netDevices[0] (must be unique)"},
        RuleCase{"NetDevicesNeed110",
                 R"([{"op":"add","path":"/containerEdits/netDevices",
            "value":[{"hostInterfaceName":"eth1","name":"n"}]}])",
                 "cdiVersion: \"0.5.0\" is too low: 1.1.0 is needed because "
                 "containerEdits.netDevices is set"}),
    [](const ::testing::TestParamInfo<RuleCase>& info) {
      return info.param.name;
    });

TEST(ValidatorTest, InvalidUtf8InValuesDoesNotThrow) {
  Json spec = Base();
  spec["devices"][1]["name"] = "bad\xff";
  Status status = ValidateSpec(spec);
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), StartsWith("devices[1].name: \"bad"));
}

}  // namespace
}  // namespace gcushare::cdi
