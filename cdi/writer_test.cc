#include "cdi/writer.h"

#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "cdi/builder.h"
#include "cdi/parser.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/files.h"

namespace gcushare::cdi {
namespace {

using Json = nlohmann::json;
using ::gcushare::testing::MakeTempDir;
using ::gcushare::testing::ReadFileOrEmpty;
using ::gcushare::testing::WriteFileOrDie;
using ::testing::HasSubstr;

efml::Inventory TwoCards() {
  efml::Inventory inventory;
  for (uint32_t i = 0; i < 2; ++i) {
    efml::Card card;
    card.index = i;
    card.uuid = "GCU-U000000000" + std::to_string(i + 1);
    card.memory_mib = 16384;
    card.device.path = "/dev/gcu" + std::to_string(i);
    card.device.major = 238;
    card.device.minor = i;
    inventory.cards.push_back(card);
  }
  inventory.control_nodes.push_back(
      {"/dev/gcuctl", std::nullopt, std::nullopt});
  return inventory;
}

Spec TwoCardSpec() {
  StatusOr<Spec> spec = BuildSpec(TwoCards());
  EXPECT_TRUE(spec.ok()) << spec.status();
  return spec.ok() ? *spec : Spec{};
}

bool Exists(const std::string& path) { return access(path.c_str(), F_OK) == 0; }

TEST(WriterTest, FormatsAndPaths) {
  EXPECT_EQ(*ParseFormat("json"), Format::kJson);
  EXPECT_EQ(*ParseFormat("yaml"), Format::kYaml);
  EXPECT_THAT(ParseFormat("yml").status().message(),
              HasSubstr("unknown spec format \"yml\""));
  EXPECT_EQ(SpecPath("/var/run/cdi", Format::kJson),
            "/var/run/cdi/enflame.com-gcu.json");
  EXPECT_EQ(SpecPath("/etc/cdi/", Format::kYaml),
            "/etc/cdi/enflame.com-gcu.yaml");
}

TEST(WriterTest, WritesJsonThatReadsBackAsTheSpec) {
  std::string dir = MakeTempDir();
  Spec spec = TwoCardSpec();
  StatusOr<WriteResult> result = WriteSpec(spec, dir, Format::kJson);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->path, dir + "/enflame.com-gcu.json");
  EXPECT_TRUE(result->written);
  EXPECT_EQ(result->removed_path, "");
  std::string text = ReadFileOrEmpty(result->path);
  EXPECT_EQ(text, SerializeSpec(spec, Format::kJson));
  StatusOr<Json> back = ParseSpecText(text, result->path);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, ToJson(spec));
  struct stat st;
  ASSERT_EQ(stat(result->path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0644u);
}

TEST(WriterTest, JsonTextIsReadableAndStable) {
  Spec spec;
  spec.cdi_version = "0.5.0";
  spec.kind = "enflame.com/gcu";
  Device device;
  device.name = "0";
  device.container_edits.env = {"ENFLAME_VISIBLE_DEVICES=0"};
  device.container_edits.device_nodes = {
      {.path = "/dev/gcu0", .type = "c", .major = 238, .minor = 0}};
  spec.devices = {device};
  EXPECT_EQ(SerializeSpec(spec, Format::kJson),
            R"({
  "cdiVersion": "0.5.0",
  "kind": "enflame.com/gcu",
  "devices": [
    {
      "name": "0",
      "containerEdits": {
        "env": [
          "ENFLAME_VISIBLE_DEVICES=0"
        ],
        "deviceNodes": [
          {
            "path": "/dev/gcu0",
            "type": "c",
            "major": 238,
            "minor": 0
          }
        ]
      }
    }
  ]
}
)");
  EXPECT_EQ(SerializeSpec(spec, Format::kYaml),
            R"(cdiVersion: "0.5.0"
kind: enflame.com/gcu
devices:
  - name: "0"
    containerEdits:
      env:
        - ENFLAME_VISIBLE_DEVICES=0
      deviceNodes:
        - path: /dev/gcu0
          type: c
          major: 238
          minor: 0
)");
}

TEST(WriterTest, WritesYamlWithQuotedIndexNames) {
  std::string dir = MakeTempDir();
  Spec spec = TwoCardSpec();
  StatusOr<WriteResult> result = WriteSpec(spec, dir, Format::kYaml);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->path, dir + "/enflame.com-gcu.yaml");
  std::string text = ReadFileOrEmpty(result->path);
  EXPECT_THAT(text, HasSubstr("- name: \"0\"\n"));
  EXPECT_THAT(text, HasSubstr("- name: \"1\"\n"));
  EXPECT_THAT(text, HasSubstr("- name: all\n"));
  StatusOr<Json> back = ParseSpecText(text, result->path);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, ToJson(spec));
}

TEST(WriterTest, RewritingTheSameSpecLeavesTheFileAlone) {
  std::string dir = MakeTempDir();
  for (Format format : {Format::kJson, Format::kYaml}) {
    StatusOr<WriteResult> first = WriteSpec(TwoCardSpec(), dir, format);
    ASSERT_TRUE(first.ok()) << first.status();
    EXPECT_TRUE(first->written);
    struct stat before;
    ASSERT_EQ(stat(first->path.c_str(), &before), 0);
    std::string bytes = ReadFileOrEmpty(first->path);

    StatusOr<WriteResult> second = WriteSpec(TwoCardSpec(), dir, format);
    ASSERT_TRUE(second.ok()) << second.status();
    EXPECT_FALSE(second->written);
    EXPECT_EQ(second->path, first->path);
    struct stat after;
    ASSERT_EQ(stat(second->path.c_str(), &after), 0);
    EXPECT_EQ(after.st_ino, before.st_ino);
    EXPECT_EQ(ReadFileOrEmpty(second->path), bytes);
  }
}

TEST(WriterTest, SameInventorySameBytes) {
  for (Format format : {Format::kJson, Format::kYaml}) {
    EXPECT_EQ(SerializeSpec(*BuildSpec(TwoCards()), format),
              SerializeSpec(*BuildSpec(TwoCards()), format));
  }
}

TEST(WriterTest, RefusesAnInvalidSpecAndKeepsTheOldFile) {
  std::string dir = MakeTempDir();
  StatusOr<WriteResult> good = WriteSpec(TwoCardSpec(), dir, Format::kJson);
  ASSERT_TRUE(good.ok()) << good.status();
  std::string old_bytes = ReadFileOrEmpty(good->path);

  Spec no_devices = TwoCardSpec();
  no_devices.devices.clear();
  StatusOr<WriteResult> result = WriteSpec(no_devices, dir, Format::kJson);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(result.status().message(),
            "refusing to write an invalid CDI spec: devices: must have at "
            "least one device");
  EXPECT_EQ(ReadFileOrEmpty(good->path), old_bytes);

  Spec too_old = TwoCardSpec();
  too_old.cdi_version = "0.4.0";  // Index names need 0.5.0.
  result = WriteSpec(too_old, dir, Format::kYaml);
  ASSERT_FALSE(result.ok());
  EXPECT_THAT(result.status().message(),
              HasSubstr("cdiVersion: \"0.4.0\" is too low: 0.5.0 is needed"));
  EXPECT_FALSE(Exists(dir + "/enflame.com-gcu.yaml"));
  EXPECT_EQ(ReadFileOrEmpty(good->path), old_bytes);

  Spec bad_node = TwoCardSpec();
  bad_node.devices[0].container_edits.device_nodes[0].path = "dev/gcu0";
  result = WriteSpec(bad_node, dir, Format::kJson);
  ASSERT_FALSE(result.ok());
  EXPECT_THAT(result.status().message(),
              HasSubstr("devices[0].containerEdits.deviceNodes[0].path: "
                        "\"dev/gcu0\" is not an absolute path"));
  EXPECT_EQ(ReadFileOrEmpty(good->path), old_bytes);
}

TEST(WriterTest, UnwritableDirectory) {
  std::string dir = MakeTempDir();
  WriteFileOrDie(dir + "/file", "not a directory");
  StatusOr<WriteResult> result =
      WriteSpec(TwoCardSpec(), dir + "/file", Format::kJson);
  ASSERT_FALSE(result.ok());
  EXPECT_THAT(result.status().message(), HasSubstr(dir + "/file"));
  EXPECT_THAT(result.status().message(), HasSubstr("Not a directory"));
  EXPECT_EQ(ReadFileOrEmpty(dir + "/file"), "not a directory");
}

TEST(WriterTest, CreatesAMissingSpecDirectory) {
  std::string dir = MakeTempDir() + "/var/run/cdi";
  StatusOr<WriteResult> result = WriteSpec(TwoCardSpec(), dir, Format::kJson);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->path, dir + "/enflame.com-gcu.json");
  EXPECT_TRUE(result->written);
  EXPECT_TRUE(Exists(result->path));
}

TEST(WriterTest, SwitchingFormatRemovesTheOtherFile) {
  std::string dir = MakeTempDir();
  ASSERT_TRUE(WriteSpec(TwoCardSpec(), dir, Format::kJson).ok());
  StatusOr<WriteResult> yaml = WriteSpec(TwoCardSpec(), dir, Format::kYaml);
  ASSERT_TRUE(yaml.ok()) << yaml.status();
  EXPECT_EQ(yaml->removed_path, dir + "/enflame.com-gcu.json");
  EXPECT_FALSE(Exists(dir + "/enflame.com-gcu.json"));
  EXPECT_TRUE(Exists(dir + "/enflame.com-gcu.yaml"));
  // Another vendor's spec is none of our business.
  WriteFileOrDie(dir + "/other.com-gpu.json", "{}");
  ASSERT_TRUE(WriteSpec(TwoCardSpec(), dir, Format::kJson).ok());
  EXPECT_FALSE(Exists(dir + "/enflame.com-gcu.yaml"));
  EXPECT_EQ(ReadFileOrEmpty(dir + "/other.com-gpu.json"), "{}");
}

}  // namespace
}  // namespace gcushare::cdi
