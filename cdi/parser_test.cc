#include "cdi/parser.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/files.h"

namespace gcushare::cdi {
namespace {

using Json = nlohmann::json;
using ::gcushare::testing::MakeTempDir;
using ::gcushare::testing::WriteFileOrDie;
using ::testing::HasSubstr;

constexpr char kJsonSpec[] = R"(
  {
    "cdiVersion": "0.5.0",
    "kind": "enflame.com/gcu",
    "devices": [{"name": "0", "containerEdits": {
      "env": ["ENFLAME_VISIBLE_DEVICES=0"],
      "deviceNodes": [{"path": "/dev/gcu0", "type": "c", "major": 234,
                       "minor": 0}]}}]
  })";

constexpr char kYamlSpec[] = R"(# Enflame GCUs
cdiVersion: "0.5.0"
kind: enflame.com/gcu
devices:
  - name: "0"
    containerEdits:
      env:
        - ENFLAME_VISIBLE_DEVICES=0
      deviceNodes:
        - path: /dev/gcu0
          type: c
          major: 234
          minor: 0
)";

TEST(ParserTest, JsonAndYamlGiveTheSameTree) {
  StatusOr<Json> from_json = ParseSpecText(kJsonSpec, "a.json");
  StatusOr<Json> from_yaml = ParseSpecText(kYamlSpec, "a.yaml");
  ASSERT_TRUE(from_json.ok()) << from_json.status();
  ASSERT_TRUE(from_yaml.ok()) << from_yaml.status();
  EXPECT_EQ(*from_json, *from_yaml);
  const Json& node =
      (*from_yaml)["devices"][0]["containerEdits"]["deviceNodes"][0];
  EXPECT_TRUE(node["major"].is_number_integer());
  EXPECT_EQ(node["major"], 234);
}

TEST(ParserTest, QuotedZeroStaysAStringPlainZeroIsANumber) {
  StatusOr<Json> quoted = ParseSpecText("name: \"0\"\n", "q.yaml");
  ASSERT_TRUE(quoted.ok()) << quoted.status();
  EXPECT_EQ((*quoted)["name"], Json("0"));
  StatusOr<Json> plain = ParseSpecText("name: 0\n", "p.yaml");
  ASSERT_TRUE(plain.ok()) << plain.status();
  EXPECT_EQ((*plain)["name"], Json(0));
  EXPECT_TRUE((*plain)["name"].is_number());
}

TEST(ParserTest, FormatIsChosenByTheFirstCharacter) {
  // JSON after blank lines and a BOM.
  StatusOr<Json> json = ParseSpecText("\xEF\xBB\xBF\n  \t{\"a\": [1]}", "x");
  ASSERT_TRUE(json.ok()) << json.status();
  EXPECT_EQ(*json, Json::parse(R"({"a": [1]})"));
  // YAML flow mapping starting with something else is still YAML.
  StatusOr<Json> yaml = ParseSpecText("a: {b: c}\n", "x");
  ASSERT_TRUE(yaml.ok()) << yaml.status();
  EXPECT_EQ(*yaml, Json::parse(R"({"a": {"b": "c"}})"));
}

TEST(ParserTest, BrokenYamlNamesFileAndLine) {
  StatusOr<Json> tree = ParseSpecText(
      "cdiVersion: \"0.5.0\"\nkind: enflame.com/gcu\ndevices:\n  - name: "
      "\"0\"\n   containerEdits: {}\n",
      "/etc/cdi/broken.yaml");
  ASSERT_FALSE(tree.ok());
  EXPECT_EQ(tree.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(tree.status().message(),
              HasSubstr("/etc/cdi/broken.yaml line 5: invalid YAML"));

  tree = ParseSpecText("a: 1\n  b: 2\n", "indent.yaml");
  ASSERT_FALSE(tree.ok());
  EXPECT_THAT(tree.status().message(), HasSubstr("indent.yaml line 2: "));
}

TEST(ParserTest, BrokenJsonNamesFileAndLine) {
  StatusOr<Json> tree =
      ParseSpecText("{\n  \"a\": 1,\n  \"b\": ,\n}\n", "/x/broken.json");
  ASSERT_FALSE(tree.ok());
  EXPECT_EQ(tree.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(tree.status().message(),
              HasSubstr("/x/broken.json line 3: invalid JSON: "));
  EXPECT_THAT(tree.status().message(), ::testing::Not(HasSubstr("[json.")));

  tree = ParseSpecText("{\"a\": 1} trailing", "t.json");
  ASSERT_FALSE(tree.ok());
  EXPECT_THAT(tree.status().message(), HasSubstr("t.json line 1: "));
}

TEST(ParserTest, EmptyFile) {
  for (const char* text : {"", "  \n\n"}) {
    StatusOr<Json> tree = ParseSpecText(text, "empty.yaml");
    ASSERT_FALSE(tree.ok());
    EXPECT_EQ(tree.status().message(), "empty.yaml line 1: the file is empty");
  }
  // A comment-only YAML file has no document either.
  StatusOr<Json> tree = ParseSpecText("# nothing\n", "c.yaml");
  ASSERT_FALSE(tree.ok());
  EXPECT_THAT(tree.status().message(), HasSubstr("c.yaml line 1: "));
}

TEST(ParserTest, ReadSpecFile) {
  std::string dir = MakeTempDir();
  WriteFileOrDie(dir + "/spec.yaml", kYamlSpec);
  StatusOr<Json> tree = ReadSpecFile(dir + "/spec.yaml");
  ASSERT_TRUE(tree.ok()) << tree.status();
  EXPECT_EQ((*tree)["kind"], "enflame.com/gcu");

  StatusOr<Json> missing = ReadSpecFile(dir + "/missing.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(),
            "cannot read " + dir + "/missing.json: No such file or directory");

  StatusOr<Json> directory = ReadSpecFile(dir);
  ASSERT_FALSE(directory.ok());
  EXPECT_THAT(directory.status().message(), HasSubstr("Is a directory"));
}

TEST(ParserTest, ToYamlQuotesWhatWouldChangeTypeAndRoundTrips) {
  StatusOr<Json> spec = ParseSpecText(kJsonSpec, "a.json");
  ASSERT_TRUE(spec.ok()) << spec.status();
  std::string yaml = ToYaml(*spec);
  EXPECT_THAT(yaml, HasSubstr("name: \"0\"\n"));
  EXPECT_THAT(yaml, HasSubstr("cdiVersion: \"0.5.0\"\n"));
  EXPECT_THAT(yaml, HasSubstr("major: 234\n"));
  StatusOr<Json> back = ParseSpecText(yaml, "back.yaml");
  ASSERT_TRUE(back.ok()) << back.status() << "\n" << yaml;
  EXPECT_EQ(*back, *spec);
}

}  // namespace
}  // namespace gcushare::cdi
