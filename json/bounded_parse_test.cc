#include "json/bounded_parse.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

namespace gcushare::json {
namespace {

std::string Nested(int depth, char open, char close) {
  return std::string(depth, open) + std::string(depth, close);
}

TEST(JsonNestingDepthTest, CountsBracketsOutsideStrings) {
  EXPECT_EQ(JsonNestingDepth("{}", 100), 1);
  EXPECT_EQ(JsonNestingDepth(R"({"a":[[1],{"b":{}}]})", 100), 4);
  EXPECT_EQ(JsonNestingDepth(R"({"a":"[[[[[[\"[[["})", 100), 1);
  EXPECT_EQ(JsonNestingDepth("12", 100), 0);
  EXPECT_EQ(JsonNestingDepth(Nested(1000, '[', ']'), 100), 101);  // Stops.
}

TEST(JsonNestingDepthTest, BackslashRunsBeforeAQuote) {
  EXPECT_EQ(JsonNestingDepth(R"(["x\\",[[1]]])", 100), 3);   // Ends.
  EXPECT_EQ(JsonNestingDepth(R"(["x\\\"[[[",1])", 100), 1);  // Escaped.
  EXPECT_EQ(JsonNestingDepth(R"(["\\\\",[1]])", 100), 2);
  EXPECT_EQ(JsonNestingDepth(R"([["abc)", 100), 2);  // Unterminated.
  EXPECT_EQ(JsonNestingDepth(R"(["\)", 100), 1);
}

// The byte-by-byte reading the quote-to-quote scan must agree with.
int ReferenceDepth(std::string_view text, int stop_after) {
  int depth = 0;
  int deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > stop_after) return deepest;
    } else if (c == ']' || c == '}') {
      if (depth > 0) --depth;
    }
  }
  return deepest;
}

TEST(JsonNestingDepthTest, AgreesWithAByteByByteScan) {
  const char alphabet[] = {'"', '\\', '[', ']', '{', '}', 'a'};
  uint32_t state = 12345;  // A fixed LCG: the same texts every run.
  for (int n = 0; n < 20000; ++n) {
    std::string text;
    const int length = n % 24;
    for (int i = 0; i < length; ++i) {
      state = state * 1103515245u + 12345u;
      text += alphabet[(state >> 16) % sizeof(alphabet)];
    }
    ASSERT_EQ(JsonNestingDepth(text, 5), ReferenceDepth(text, 5)) << text;
  }
}

TEST(JsonNestingDepthTest, AgreesWithAByteByByteScanAcrossBlocks) {
  // Longer texts, mostly filler: escapes, strings and brackets fall on and
  // across the 16-byte blocks of the vector scan, and past its tail.
  const char alphabet[] = {'"', '\\', '[', ']', '{', '}', 'a',
                           'b', 'c',  'd', 'e', 'f', 'g', 'h'};
  uint32_t state = 777;
  for (int n = 0; n < 20000; ++n) {
    std::string text;
    const int length = 16 + n % 97;
    for (int i = 0; i < length; ++i) {
      state = state * 1103515245u + 12345u;
      text += alphabet[(state >> 16) % sizeof(alphabet)];
    }
    ASSERT_EQ(JsonNestingDepth(text, 6), ReferenceDepth(text, 6)) << text;
    ASSERT_EQ(JsonNestingDepth(text, 100), ReferenceDepth(text, 100)) << text;
  }
  // A backslash ending one block escapes the quote that starts the next.
  std::string split = std::string(15, 'a');
  split = "[\"" + split.substr(2) + "\\\"[[[[\"]";
  ASSERT_EQ(split[15], '\\');
  EXPECT_EQ(JsonNestingDepth(split, 100), 1);
  EXPECT_EQ(ReferenceDepth(split, 100), 1);
}

TEST(JsonNestingDepthTest, AgreesWithAByteByByteScanInBlocksWithoutEscapes) {
  // Long texts where most 64-byte blocks hold no backslash (as JSON from
  // the API server): the vector scan counts their brackets without a walk,
  // and walks only those that may go deeper or meet depth 0; a rare
  // backslash sends its block, and the one it escapes into, the slow way.
  const char alphabet[] = {'"', '[', ']', '{', '}', '[', ']', 'a', 'b', 'c',
                           'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l'};
  uint32_t state = 4242;
  int deep = 0;  // Texts that stop on the bound: the test reaches them.
  for (int n = 0; n < 20000; ++n) {
    std::string text;
    const int length = 60 + n % 400;
    for (int i = 0; i < length; ++i) {
      state = state * 1103515245u + 12345u;
      const uint32_t pick = state >> 16;
      text += pick % 97 == 0 ? '\\' : alphabet[pick % sizeof(alphabet)];
    }
    ASSERT_EQ(JsonNestingDepth(text, 4), ReferenceDepth(text, 4)) << text;
    ASSERT_EQ(JsonNestingDepth(text, 100), ReferenceDepth(text, 100)) << text;
    if (ReferenceDepth(text, 4) > 4) ++deep;
  }
  EXPECT_GT(deep, 100);
  // A string spanning blocks hides the brackets in it; the depth carries.
  const std::string across = "[[" + std::string(70, 'a') + "\"" +
                             std::string(60, '[') + "\"" +
                             std::string(80, 'b') + "[]]]";
  EXPECT_EQ(JsonNestingDepth(across, 100), 3);
  EXPECT_EQ(ReferenceDepth(across, 100), 3);
}

TEST(ParseJsonTest, AcceptsUpToTheLimit) {
  auto parsed = ParseJson(Nested(100, '[', ']'), "body");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  auto object = ParseJson(R"({"Pod":{"metadata":{"name":"p"}}})", "body");
  ASSERT_TRUE(object.ok());
  EXPECT_EQ((*object)["Pod"]["metadata"]["name"], "p");
}

TEST(ParseJsonTest, RefusesDeeperAndMalformed) {
  // 400 KB of nesting: a stack overflow in nlohmann's recursive copy or
  // destructor without the bound.
  std::string body = "{\"Pod\":{\"x\":" + Nested(200000, '[', ']') + "}}";
  auto parsed = ParseJson(body, "ExtenderArgs");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(parsed.status().message(),
            "ExtenderArgs: nested deeper than 100 levels");
  auto bad = ParseJson("{\"a\":", "body");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "body: malformed JSON");
  EXPECT_FALSE(ParseJson(Nested(101, '{', '}'), "b").ok());
}

TEST(CheckYamlDepthTest, AcceptsRealFiles) {
  const char* kubeconfig = R"(apiVersion: v1
kind: Config
clusters:
- name: c
  cluster:
    server: "https://10.0.0.1:6443"   # [[[[ in a comment
contexts:
- context: {cluster: c, user: u}
  name: x
users:
- name: u
  user: {token: 'it''s [a] token'}
)";
  EXPECT_TRUE(CheckYamlDepth(kubeconfig, "kubeconfig").ok());
  EXPECT_TRUE(CheckYamlDepth("a: [[1, 2], {b: [3]}]\n", "f").ok());
}

TEST(CheckYamlDepthTest, RefusesDeepFlowBlockAndCompactNesting) {
  for (const std::string& text :
       {"a: " + Nested(100000, '[', ']') + "\n",
        "a: " + Nested(100000, '{', '}') + "\n",
        std::string(300, ' ') + "a: 1\n",
        [] {
          std::string s;
          for (int i = 0; i < 100000; ++i) s += "- ";
          return s + "x\n";
        }(),
        // A quote inside a plain scalar does not hide what follows.
        "a: it's " + Nested(100000, '[', ']') + "\n"}) {
    Status status = CheckYamlDepth(text, "cards.yaml");
    ASSERT_FALSE(status.ok()) << text.substr(0, 40);
    EXPECT_EQ(status.message(),
              "cards.yaml: YAML nested deeper than 256 levels");
  }
}

TEST(CheckYamlDepthTest, WhatItAcceptsYamlCppLoads) {
  std::string text = "a: " + Nested(200, '[', ']') + "\n";
  ASSERT_TRUE(CheckYamlDepth(text, "f").ok());
  YAML::Node node = YAML::Load(text);
  EXPECT_TRUE(node["a"].IsSequence());
}

// Found by //fuzz:cdi_spec_fuzzer: yaml-cpp 0.7 never returns on these
// (each would hang this test without the check).
TEST(CheckNoYamlCppLoopTest, RefusesWhatYamlCppLoopsOn) {
  for (const char* text :
       {",", " ,x", "# c\n,", "'a'\n,", "\"a\" ,", "[1] ,", "{}\n,", "&x ,",
        "!t\n ,", "--- ,", "x: 1\n---\n,", "%YAML 1.2\n--- ,", "a: b\n...\n,",
        "!,", "&a,", "'a''b' ,", "'a' &b ,", "'a'&b ,", "'a' 'b' ,",
        // A plain scalar after a root node, then "," in column 0.
        "''\xbf\n,", "'a'x\n,", "'a' x\n,", "[]x\n,y", "'a'x\ny\n,",
        "''\xbf{\n,", "'a'x[\n,", "''\xbf,'\n'',"}) {
    Status status = CheckYamlDepth(text, "f.yaml");
    ASSERT_FALSE(status.ok()) << text;
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
    EXPECT_NE(status.message().find("',' outside a flow collection"),
              std::string::npos)
        << status;
  }
}

TEST(CheckNoYamlCppLoopTest, RefusesNulBytes) {
  // "\0," is a UTF-16 "," to yaml-cpp, and it loops on it too.
  Status status = CheckYamlDepth(std::string_view("\0,", 2), "f.yaml");
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("NUL byte (line 1)"), std::string::npos)
      << status;
}

// The scans skip the rest of a word, a quoted scalar, a comment or an
// anchor in one go: what ends each is still seen.
TEST(CheckNoYamlCppLoopTest, SkippedRunsStillEndWhereTheyShould) {
  using std::string_literals::operator""s;
  struct Case {
    std::string text;
    std::string error;  // Empty: OK.
  };
  const Case cases[] = {
      {"a: word\0"s, "NUL byte (line 1)"},
      {"a: b\n# comment \0"s, "NUL byte (line 2)"},
      {"a: 'quoted \0'"s, "NUL byte (line 1)"},
      {"a: \"quoted \0\""s, "NUL byte (line 1)"},
      {"a: &anchor\0"s, "NUL byte (line 1)"},
      {"'a' plain\n\nx\0"s, "NUL byte (line 3)"},
      {"[a]word\n,", "',' outside a flow collection (line 2)"},
      {"&anchor[a]\n,", "',' outside a flow collection (line 2)"},
      {"a: \"x\\\"[[[[[\"\n", ""},  // An escaped quote does not end it.
      {"a: b # [[[[[\n", ""},
      {"a: b[[[[[c: d\n", "YAML nested deeper than 3 levels"},
  };
  for (const Case& c : cases) {
    Status status = CheckYamlDepth(c.text, "f.yaml", /*max_depth=*/3);
    if (c.error.empty()) {
      EXPECT_TRUE(status.ok()) << c.text << ": " << status;
    } else {
      EXPECT_NE(status.message().find(c.error), std::string::npos)
          << c.text << ": " << status;
    }
  }
}

TEST(CheckNoYamlCppLoopTest, LeavesCommasInScalarsAndFlowsAlone) {
  for (const char* text :
       {"a ,", "a\n,", "a: b,c\n", "a: x , y\n", "a: [1, 2]\n",
        "a: {b: 1, c: 2}\n", "- --feature-gates=A=true,B=false\n", "a: 'x,y'\n",
        "# a, b\nc: d\n", "[1,\n,]"}) {
    EXPECT_TRUE(CheckYamlDepth(text, "f.yaml").ok()) << text;
    EXPECT_NO_THROW(YAML::LoadAll(text)) << text;
  }
}

// Found by //fuzz:cdi_spec_fuzzer after the patterns above: more shapes of
// the same yaml-cpp loop (a BOM before the ",", a "," after a block
// sequence, ...). Each would hang this test without CheckYamlCppEnds, which
// CheckYamlDepth runs last.
TEST(CheckYamlCppEndsTest, RefusesLoopsThePatternsMiss) {
  for (const char* text : {"\xEF\xBB\xBF,", "\xEF\xBB\xBF,uc%? N4YAMLr",
                           "&a \xb8\n\n-\n\n,\n..? ."}) {
    Status status = CheckYamlDepth(text, "f.yaml");
    ASSERT_FALSE(status.ok()) << text;
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
    EXPECT_NE(status.message().find("f.yaml: yaml-cpp does not finish parsing "
                                    "this text (endless documents from line"),
              std::string::npos)
        << status;
  }
}

TEST(CheckYamlCppEndsTest, CatchesThePatternsOnItsOwn) {
  for (const char* text : {",", "# c\n,", "'a'\n,", "&x ,", "x: 1\n---\n,",
                           "'a'x\n,", "[]x\n,y", "''\xbf,'\n'',"}) {
    EXPECT_FALSE(CheckYamlCppEnds(text, "f.yaml").ok()) << text;
  }
}

TEST(CheckYamlCppEndsTest, AcceptsDenseValidYamlAndLeavesErrorsToTheLoad) {
  std::string documents;
  for (int i = 0; i < 1000; ++i) documents += "---\n";
  std::string maps = "[";
  for (int i = 0; i < 1000; ++i) maps += "{a},";
  maps += "{a}]";
  std::string keys;
  for (int i = 0; i < 1000; ++i) keys += "?\n";
  for (const std::string& text :
       {documents, maps, keys, std::string("a: [1, {b: c}]\n"),
        std::string("- - - - x\n"), std::string("a: [\n"), std::string()}) {
    EXPECT_TRUE(CheckYamlCppEnds(text, "f.yaml").ok()) << text;
  }
  EXPECT_TRUE(CheckYamlDepth(maps, "f.yaml").ok());
}

}  // namespace
}  // namespace gcushare::json
