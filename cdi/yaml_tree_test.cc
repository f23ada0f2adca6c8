#include "cdi/yaml_tree.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace gcushare::cdi {
namespace {

using Json = nlohmann::json;
using ::testing::HasSubstr;

TEST(YamlTreeTest, ConvertsMapsListsAndTypedScalars) {
  StatusOr<Json> tree = YamlToJson(R"(
name: "0"
plain: 0
single: '12'
block: |
  text
list: [1, -2, 1.5, true, null, ~, x]
nested:
  - a: 1
  - {}
  - []
empty:
tagged: !!str 42
)",
                                   "t.yaml");
  ASSERT_TRUE(tree.ok()) << tree.status();
  EXPECT_EQ(*tree, Json::parse(R"({
    "name": "0", "plain": 0, "single": "12", "block": "text\n",
    "list": [1, -2, 1.5, true, null, null, "x"],
    "nested": [{"a": 1}, {}, []], "empty": null, "tagged": "42"})"));
  EXPECT_TRUE((*tree)["name"].is_string());
  EXPECT_TRUE((*tree)["plain"].is_number_integer());
}

TEST(YamlTreeTest, KeysAreAlwaysStrings) {
  StatusOr<Json> tree = YamlToJson("1: a\ntrue: b\n", "t.yaml");
  ASSERT_TRUE(tree.ok()) << tree.status();
  EXPECT_EQ(*tree, Json::parse(R"({"1": "a", "true": "b"})"));
}

TEST(YamlTreeTest, AliasesAreExpanded) {
  StatusOr<Json> tree = YamlToJson("a: &node {x: 1}\nb: *node\n", "t.yaml");
  ASSERT_TRUE(tree.ok()) << tree.status();
  EXPECT_EQ(*tree, Json::parse(R"({"a": {"x": 1}, "b": {"x": 1}})"));
}

TEST(YamlTreeTest, AliasBombIsRefused) {
  std::string text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i < 8; ++i) {
    std::string prev = "*a" + std::to_string(i - 1);
    text += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
    for (int j = 0; j < 10; ++j) text += (j ? ", " : "") + prev;
    text += "]\n";
  }
  StatusOr<Json> tree = YamlToJson(text, "bomb.yaml");
  ASSERT_FALSE(tree.ok());
  EXPECT_THAT(tree.status().message(), HasSubstr("more than 100000 nodes"));
}

TEST(YamlTreeTest, ErrorsGiveFileAndLine) {
  StatusOr<Json> tree = YamlToJson("a: 1\nb: [1, 2\nc: 3\n", "bad.yaml");
  ASSERT_FALSE(tree.ok());
  EXPECT_EQ(tree.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(tree.status().message(), HasSubstr("bad.yaml line "));
  EXPECT_THAT(tree.status().message(), HasSubstr("invalid YAML"));

  tree = YamlToJson("a: 1\nb: 2\na: 3\n", "dup.yaml");
  ASSERT_FALSE(tree.ok());
  EXPECT_EQ(tree.status().message(),
            "dup.yaml line 3: duplicate key \"a\" (first at line 1)");

  tree = YamlToJson("a: 1\n---\nb: 2\n", "two.yaml");
  ASSERT_FALSE(tree.ok());
  EXPECT_THAT(tree.status().message(),
              HasSubstr("two.yaml line 3: more than one YAML document"));

  tree = YamlToJson("? [a, b]\n: c\n", "key.yaml");
  ASSERT_FALSE(tree.ok());
  EXPECT_THAT(tree.status().message(),
              HasSubstr("key.yaml line 1: map keys must be plain strings"));

  tree = YamlToJson("a: 1\nb: 99999999999999999999\n", "big.yaml");
  ASSERT_FALSE(tree.ok());
  EXPECT_EQ(tree.status().message(),
            "big.yaml line 2: integer 99999999999999999999 does not fit in "
            "64 bits");

  tree = YamlToJson("a: !!int x\n", "tag.yaml");
  ASSERT_FALSE(tree.ok());
  EXPECT_THAT(tree.status().message(), HasSubstr("tag.yaml line 1: "));
}

TEST(YamlTreeTest, EmitsBlockYamlWithQuotedAmbiguousStrings) {
  Json tree = Json::parse(R"({"kind": "enflame.com/gcu", "cdiVersion": "0.5.0",
      "devices": [{"name": "0", "containerEdits": {"env": ["A=1"]}}],
      "n": 5, "e": [], "o": {}, "t": "true", "b": false})");
  EXPECT_EQ(JsonToYaml(tree),
            "cdiVersion: \"0.5.0\"\n"
            "kind: enflame.com/gcu\n"
            "devices:\n"
            "  - name: \"0\"\n"
            "    containerEdits:\n"
            "      env:\n"
            "        - A=1\n"
            "b: false\n"
            "e: []\n"
            "\"n\": 5\n"  // "n" is false in YAML 1.1.
            "o: {}\n"
            "t: \"true\"\n");
}

TEST(YamlTreeTest, RoundTripsTrickyValues) {
  Json tree = Json::parse(R"({
    "strings": ["", "0", "-1", "1.5", ".inf", "null", "~", "yes", "off",
                "a: b", "a #b", "#c", "- x", "[x]", "{x}", "multi\nline",
                " lead", "trail ", "quote\"s", "back\\slash", "tab\tx",
                "caf\u00e9", "*star", "&amp", "!bang", "%pct", "@at", "`tick",
                "0x1F", "0o7", "1:20", "'single'", "?q", "|", ">"],
    "numbers": [0, -1, 18446744073709551615, -9223372036854775808, 0.25,
                1e300],
    "bools": [true, false],
    "nulls": [null],
    "nested": {"1": {"true": []}}
  })");
  std::string yaml = JsonToYaml(tree);
  StatusOr<Json> back = YamlToJson(yaml, "round.yaml");
  ASSERT_TRUE(back.ok()) << back.status() << "\n" << yaml;
  EXPECT_EQ(*back, tree) << yaml;
}

}  // namespace
}  // namespace gcushare::cdi
