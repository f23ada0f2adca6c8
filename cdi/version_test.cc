#include "cdi/version.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace gcushare::cdi {
namespace {

using Json = nlohmann::json;
using ::testing::HasSubstr;

Json Minimal() {
  return Json::parse(R"({
    "cdiVersion": "0.3.0", "kind": "vendor.com/gpu",
    "devices": [{"name": "gpu0", "containerEdits": {"env": ["A=1"]}}]
  })");
}

TEST(VersionTest, KnownVersionsAndCanonicalForm) {
  EXPECT_EQ(kKnownVersions.front(), "0.1.0");
  EXPECT_EQ(kKnownVersions.back(), kCurrentVersion);
  EXPECT_EQ(CanonicalVersion("0.5.0"), "0.5.0");
  EXPECT_EQ(CanonicalVersion("v1.1.0"), "1.1.0");
  EXPECT_EQ(CanonicalVersion("1.0.0"), "1.0.0");
  EXPECT_EQ(CanonicalVersion("0.9.0"), "");
  EXPECT_EQ(CanonicalVersion("1.1"), "");
  EXPECT_EQ(CanonicalVersion("vv0.3.0"), "");
  EXPECT_EQ(CanonicalVersion(""), "");
}

TEST(VersionTest, CompareFollowsReleaseOrder) {
  EXPECT_LT(CompareVersions("0.3.0", "0.5.0"), 0);
  EXPECT_GT(CompareVersions("1.0.0", "0.8.0"), 0);
  EXPECT_EQ(CompareVersions("0.6.0", "0.6.0"), 0);
}

TEST(VersionTest, BaselineIsEarliest) {
  RequiredVersion required = RequiredVersionFor(Minimal());
  EXPECT_EQ(required.version, "0.3.0");
  EXPECT_EQ(required.reason, "");
}

struct FeatureCase {
  std::string name;
  std::string json_patch;  // JSON Patch applied to Minimal().
  std::string version;
  std::string reason_part;
};

class FeatureTest : public ::testing::TestWithParam<FeatureCase> {};

TEST_P(FeatureTest, FeatureRaisesTheMinimum) {
  const FeatureCase& c = GetParam();
  Json spec = Minimal().patch(Json::parse(c.json_patch));
  RequiredVersion required = RequiredVersionFor(spec);
  EXPECT_EQ(required.version, c.version) << spec.dump();
  EXPECT_THAT(required.reason, HasSubstr(c.reason_part));
  EXPECT_EQ(MinimumVersion(spec), c.version);
}

INSTANTIATE_TEST_SUITE_P(
    Table, FeatureTest,
    ::testing::Values(
        FeatureCase{"MountType",
                    R"([{"op":"add","path":"/containerEdits","value":
                        {"mounts":[{"hostPath":"/a","containerPath":"/b",
                        "type":"bind"}]}}])",
                    "0.4.0", "containerEdits.mounts[0].type is set"},
        FeatureCase{"EmptyMountTypeIsUnused",
                    R"([{"op":"add","path":"/containerEdits","value":
                        {"mounts":[{"hostPath":"/a","containerPath":"/b",
                        "type":""}]}}])",
                    "0.3.0", ""},
        FeatureCase{
            "HostPath",
            R"([{"op":"add","path":"/devices/0/containerEdits/deviceNodes",
                        "value":[{"path":"/dev/a","hostPath":"/dev/b"}]}])",
            "0.5.0", "devices[0].containerEdits.deviceNodes[0].hostPath"},
        FeatureCase{
            "DigitName",
            R"([{"op":"replace","path":"/devices/0/name","value":"0"}])",
            "0.5.0",
            "devices[0].name \"0\" does not start with a "
            "letter"},
        FeatureCase{"SpecAnnotations",
                    R"([{"op":"add","path":"/annotations","value":{"a":"b"}}])",
                    "0.6.0", "annotations are set"},
        FeatureCase{"EmptyAnnotationsAreUnused",
                    R"([{"op":"add","path":"/annotations","value":{}}])",
                    "0.3.0", ""},
        FeatureCase{"DeviceAnnotations",
                    R"([{"op":"add","path":"/devices/0/annotations",
                        "value":{"a":"b"}}])",
                    "0.6.0", "devices[0].annotations"},
        FeatureCase{
            "DotInClass",
            R"([{"op":"replace","path":"/kind","value":"vendor.com/gpu.v2"}])",
            "0.6.0", "has a '.' in its class"},
        FeatureCase{"IntelRdt",
                    R"([{"op":"add","path":"/devices/0/containerEdits/intelRdt",
                        "value":{"closID":"x"}}])",
                    "0.7.0", "devices[0].containerEdits.intelRdt is set"},
        FeatureCase{"EmptyIntelRdtStillCounts",
                    R"([{"op":"add","path":"/containerEdits","value":
                        {"intelRdt":{}}}])",
                    "0.7.0", "containerEdits.intelRdt is set"},
        FeatureCase{"AdditionalGids",
                    R"([{"op":"add","path":"/containerEdits","value":
                        {"additionalGids":[5]}}])",
                    "0.7.0", "containerEdits.additionalGids"},
        FeatureCase{
            "NetDevices",
            R"([{"op":"add","path":"/devices/0/containerEdits/netDevices",
                        "value":[{"hostInterfaceName":"eth1","name":"n0"}]}])",
            "1.1.0", "netDevices is set"},
        FeatureCase{"Schemata",
                    R"([{"op":"add","path":"/containerEdits","value":
                        {"intelRdt":{"schemata":["L3:0=f"]}}}])",
                    "1.1.0", "intelRdt.schemata"},
        FeatureCase{"EnableMonitoring",
                    R"([{"op":"add","path":"/containerEdits","value":
                        {"intelRdt":{"enableMonitoring":true}}}])",
                    "1.1.0", "intelRdt.enableMonitoring"},
        FeatureCase{"MonitoringFalseIsOnlyIntelRdt",
                    R"([{"op":"add","path":"/containerEdits","value":
                        {"intelRdt":{"enableMonitoring":false}}}])",
                    "0.7.0", "intelRdt is set"},
        FeatureCase{"HighestWins",
                    R"([{"op":"replace","path":"/devices/0/name","value":"0"},
                        {"op":"add","path":"/annotations","value":{"a":"b"}}])",
                    "0.6.0", "annotations"}),
    [](const ::testing::TestParamInfo<FeatureCase>& info) {
      return info.param.name;
    });

TEST(VersionTest, IgnoresMalformedTrees) {
  EXPECT_EQ(MinimumVersion(Json()), "0.3.0");
  EXPECT_EQ(MinimumVersion(Json::array()), "0.3.0");
  EXPECT_EQ(MinimumVersion(Json::parse(R"({"devices": 3, "kind": 7,
      "containerEdits": {"mounts": "x", "deviceNodes": [1, "a"]}})")),
            "0.3.0");
}

}  // namespace
}  // namespace gcushare::cdi
