#include "config-manager/yaml_text.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gcushare::config_manager {
namespace {

TEST(YamlTextTest, KeepsQuotedStringsStrings) {
  const char* text =
      "a: \"true\"\nb: \"10259\"\nc: true\nd: 10259\ne: 'null'\nf: null\n"
      "g: {}\nh: []\ni: plain text\n";
  auto node = ParseYamlMap(text, "t");
  ASSERT_TRUE(node.ok()) << node.status().ToString();
  std::string out = EmitYaml(*node);
  // Re-read: every scalar keeps its type and value.
  auto again = ParseYamlMap(out, "out");
  ASSERT_TRUE(again.ok()) << out;
  EXPECT_EQ((*again)["a"].Tag(), "!") << out;
  EXPECT_EQ((*again)["a"].Scalar(), "true");
  EXPECT_EQ((*again)["b"].Tag(), "!") << out;
  EXPECT_EQ((*again)["c"].Tag(), "?");
  EXPECT_EQ((*again)["c"].as<bool>(), true);
  EXPECT_EQ((*again)["d"].as<int>(), 10259);
  EXPECT_EQ((*again)["e"].Tag(), "!");
  EXPECT_EQ((*again)["e"].Scalar(), "null");
  EXPECT_TRUE((*again)["f"].IsNull());
  EXPECT_TRUE((*again)["g"].IsMap());
  EXPECT_EQ((*again)["g"].size(), 0u);
  EXPECT_TRUE((*again)["h"].IsSequence());
  EXPECT_EQ((*again)["i"].Scalar(), "plain text");
  EXPECT_NE(out.find("f: null"), std::string::npos) << out;
  EXPECT_NE(out.find("g: {}"), std::string::npos) << out;
  EXPECT_EQ(out.back(), '\n');
  // Emission is stable.
  EXPECT_EQ(EmitYaml(*again), out);
}

// Found by //fuzz:scheduler_manifest_fuzzer: a key over 1024 characters
// was written as a simple key, which no YAML parser reads back.
TEST(YamlTextTest, LongKeysParseBack) {
  for (size_t length : {200u, 201u, 300u, 1100u, 5000u}) {
    for (char c : {'a', '\x17'}) {
      const std::string key(length, c);
      YAML::Node map(YAML::NodeType::Map);
      map[key] = "value";
      map["short"] = "x";
      const std::string out = EmitYaml(map);
      auto again = ParseYamlMap(out, "out");
      ASSERT_TRUE(again.ok()) << again.status().ToString() << "\n" << out;
      EXPECT_EQ((*again)[key].Scalar(), "value");
      EXPECT_EQ((*again)["short"].Scalar(), "x");
      EXPECT_EQ(EmitYaml(*again), out);
    }
  }
}

// Found by //fuzz:scheduler_config_fuzzer: an empty flow sequence as the
// first key ("? []") was written indented as a simple key ("  []: null"),
// which parses back as two documents. Keys that are not scalars go out as
// explicit keys, first or not.
TEST(YamlTextTest, CollectionKeysParseBack) {
  const char* text =
      "? []\n: x\n? {}\n: y\n? [a, b]\n: z\n? {k: v}\n: w\nname: n\n";
  auto node = ParseYamlMap(text, "t");
  ASSERT_TRUE(node.ok()) << node.status().ToString();
  ASSERT_EQ(node->size(), 5u);
  const std::string out = EmitYaml(*node);
  auto again = ParseYamlMap(out, "out");
  ASSERT_TRUE(again.ok()) << again.status().ToString() << "\n" << out;
  ASSERT_EQ(again->size(), 5u) << out;
  EXPECT_EQ((*again)["name"].Scalar(), "n");
  std::vector<std::string> values;
  for (const auto& kv : *again) {
    if (!kv.first.IsScalar()) values.push_back(kv.second.Scalar());
  }
  EXPECT_EQ(values, (std::vector<std::string>{"x", "y", "z", "w"})) << out;
  EXPECT_EQ(EmitYaml(*again), out);
}

// EmitYamlToWrite is EmitYaml when the text reads back, and refuses a
// tree whose block-style text the depth guard would refuse.
TEST(YamlTextTest, EmitToWriteRefusesWhatWouldNotReadBack) {
  auto node = ParseYamlMap("a: [1, {b: c}]\nd: e\n", "t");
  ASSERT_TRUE(node.ok());
  auto written = EmitYamlToWrite(*node, "t");
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  EXPECT_EQ(*written, EmitYaml(*node));

  // 200 nested one-key maps: in flow style 200 levels, in block style 400
  // columns of indentation.
  std::string deep;
  for (int i = 0; i < 200; ++i) deep += "{k: ";
  deep += "v" + std::string(200, '}');
  auto nested = ParseYamlMap("a: " + deep + "\n", "t");
  ASSERT_TRUE(nested.ok()) << nested.status().ToString();
  auto refused = EmitYamlToWrite(*nested, "deep.yaml");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(refused.status().message().find(
                "deep.yaml as edited: YAML nested deeper than 256 levels"),
            std::string::npos)
      << refused.status().message();
}

// Found by //fuzz:scheduler_config_fuzzer: a first key beginning with
// bytes yaml-cpp takes for an encoding mark ("\xff\xfe": UTF-16) made the
// written file unreadable; UTF-8's mark would have been dropped from it.
TEST(YamlTextTest, FirstKeyIsNotReadAsAnEncodingMark) {
  for (const std::string& key :
       {std::string("\xff\xfe\xff\xffk"), std::string("\xfe\xffk"),
        std::string("\xef\xbb\xbfk"), std::string("\xc3\xa9t\xc3\xa9")}) {
    auto node = ParseYamlMap("# comment\n" + key + ": 1\nb: 2\n", "t");
    ASSERT_TRUE(node.ok()) << node.status().ToString();
    ASSERT_EQ(node->begin()->first.Scalar(), key);
    const std::string out = EmitYaml(*node);
    // Written plain, the key would begin the file ("\xef\xbb\xbf" goes
    // out escaped, "\ufeff").
    if (key[0] != '\xef') {
      EXPECT_EQ(out.rfind("---\n", 0), 0u) << out;
    }
    auto again = ParseYamlMap(out, "out");
    ASSERT_TRUE(again.ok()) << again.status().ToString() << "\n" << out;
    ASSERT_EQ(again->size(), 2u) << out;
    EXPECT_EQ(again->begin()->first.Scalar(), key) << out;
    EXPECT_EQ((*again)["b"].Scalar(), "2");
    EXPECT_EQ(EmitYaml(*again), out);
  }
}

TEST(YamlTextTest, StringNodeStaysAString) {
  YAML::Node map(YAML::NodeType::Map);
  map["x"] = StringNode("true");
  map["y"] = StringNode("0.1");
  auto again = ParseYamlMap(EmitYaml(map), "out");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ((*again)["x"].Tag(), "!");
  EXPECT_EQ((*again)["y"].Tag(), "!");
  EXPECT_EQ((*again)["y"].Scalar(), "0.1");
}

TEST(YamlTextTest, RejectsWhatIsNotOneMap) {
  struct Case {
    const char* text;
    const char* message;
  };
  for (const Case& c :
       {Case{"a: [1, 2\n", "f.yaml: "},
        Case{"a: 1\n---\nb: 2\n", "one YAML document"},
        Case{"", "one YAML document"}, Case{"- a\n- b\n", "not a YAML map"},
        Case{"just text\n", "not a YAML map"}}) {
    auto node = ParseYamlMap(c.text, "f.yaml");
    ASSERT_FALSE(node.ok()) << c.text;
    EXPECT_EQ(node.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(node.status().message().find(c.message), std::string::npos)
        << node.status().message();
  }
}

}  // namespace
}  // namespace gcushare::config_manager
