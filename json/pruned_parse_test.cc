#include "json/pruned_parse.h"

#include <gtest/gtest.h>

#include <string>

namespace gcushare::json {
namespace {

using nlohmann::json;

std::string Nested(int depth) {
  return std::string(depth, '[') + std::string(depth, ']');
}

TEST(ParsePrunedTest, AnEmptyTreeKeepsWhatParseJsonKeeps) {
  for (const char* text :
       {R"({"a":[1,-2,3.5,"x",null,true,false,{"b":{}}],"c":"\u00e9"})", "[]",
        "12", R"("s")", R"({"dup":1,"dup":2})"}) {
    SCOPED_TRACE(text);
    auto pruned = ParsePruned(text, FieldTree(), "doc");
    ASSERT_TRUE(pruned.ok()) << pruned.status();
    EXPECT_EQ(*pruned, json::parse(text));
  }
}

TEST(ParsePrunedTest, KeepsOnlyTheNamedFields) {
  FieldTree keep;
  keep.Add({"metadata", "name"})
      .Add({"metadata", "annotations", "enflame.com/a"})
      .Add({"spec", "containers", "resources"})
      .Add({"status", "phase"});
  const char* text = R"({
    "kind": "Pod",
    "metadata": {"name": "p", "labels": {"x": "y"},
                 "annotations": {"enflame.com/a": "1", "other": "2"}},
    "spec": {"containers": [
               {"name": "c", "env": [{"name": "A"}],
                "resources": {"limits": {"enflame.com/gcu-memory": 2}}},
               "not-an-object",
               {"image": "i"}],
             "nodeName": "n"},
    "status": {"phase": "Running", "conditions": [{"type": "Ready"}]}})";
  auto pruned = ParsePruned(text, keep, "pod");
  ASSERT_TRUE(pruned.ok()) << pruned.status();
  EXPECT_EQ(*pruned, json::parse(R"({
    "metadata": {"name": "p", "annotations": {"enflame.com/a": "1"}},
    "spec": {"containers": [
               {"resources": {"limits": {"enflame.com/gcu-memory": 2}}},
               "not-an-object",
               {}]},
    "status": {"phase": "Running"}})"));
}

TEST(ParsePrunedTest, KeepsAScalarOrArrayWhereAnObjectWasExpected) {
  // A reader of the pruned form must see the same shape errors.
  FieldTree keep;
  keep.Add({"metadata", "name"}).Add({"spec", "containers", "name"});
  auto pruned =
      ParsePruned(R"({"metadata":"m","spec":{"containers":7}})", keep, "pod");
  ASSERT_TRUE(pruned.ok()) << pruned.status();
  EXPECT_EQ(*pruned,
            json::parse(R"({"metadata":"m","spec":{"containers":7}})"));
  auto array =
      ParsePruned(R"([{"metadata":{"name":"a","x":1}},3])", keep, "pods");
  ASSERT_TRUE(array.ok()) << array.status();
  EXPECT_EQ(*array, json::parse(R"([{"metadata":{"name":"a"}},3])"));
}

TEST(FieldTreeTest, AWholePathWinsOverLongerOnes) {
  FieldTree keep;
  keep.Add({"a", "b"}).Add({"a"}).Add({"a", "c"});
  auto pruned = ParsePruned(R"({"a":{"b":1,"c":2,"d":3},"e":4})", keep, "doc");
  ASSERT_TRUE(pruned.ok()) << pruned.status();
  EXPECT_EQ(*pruned, json::parse(R"({"a":{"b":1,"c":2,"d":3}})"));
}

TEST(FieldTreeTest, FoldCaseKeepsKeysEqualIgnoringCaseUnderTheirOwnName) {
  FieldTree keep;
  keep.FoldCase().Add({"Pod", "spec"}).Add({"NodeNames"});
  auto pruned = ParsePruned(
      R"({"pod":{"spec":1,"Spec":2},"Pod":{"spec":3},"NODENAMES":[],)"
      R"("Podx":4,"other":5})",
      keep, "args");
  ASSERT_TRUE(pruned.ok()) << pruned.status();
  // Only the top level folds: "Spec" under a pod is dropped.
  EXPECT_EQ(*pruned, json::parse(R"({"pod":{"spec":1},"Pod":{"spec":3},)"
                                 R"("NODENAMES":[]})"));
  FieldTree exact;
  exact.Add({"Pod"});
  auto unfolded = ParsePruned(R"({"pod":1,"Pod":2})", exact, "args");
  ASSERT_TRUE(unfolded.ok()) << unfolded.status();
  EXPECT_EQ(*unfolded, json::parse(R"({"Pod":2})"));
  EXPECT_TRUE(EqualFoldAscii("NodeNames", "nODEnAMES"));
  EXPECT_FALSE(EqualFoldAscii("NodeNames", "NodeName"));
  EXPECT_FALSE(EqualFoldAscii("a\xc4", "A\xe4"));  // ASCII only.
}

TEST(ParsePrunedTest, RefusesDeepNestingKeptOrDropped) {
  FieldTree keep;
  keep.Add({"kept"});
  for (const char* field : {"kept", "dropped"}) {
    SCOPED_TRACE(field);
    // 400 KB of nesting: refused at level 101, nothing deeper is read.
    std::string body =
        std::string("{\"") + field + "\":" + Nested(200000) + "}";
    auto parsed = ParsePruned(body, keep, "list page");
    ASSERT_FALSE(parsed.ok());
    EXPECT_EQ(parsed.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(parsed.status().message(),
              "list page: nested deeper than 100 levels");
  }
  auto at_limit = ParsePruned(Nested(100), FieldTree(), "doc");
  EXPECT_TRUE(at_limit.ok()) << at_limit.status();
}

TEST(ParsePrunedTest, RefusesMalformedTextKeptOrBroken) {
  FieldTree keep;
  keep.Add({"kept"});
  for (const char* text :
       {R"({"kept":[1,}})", R"({"kept":tru})", R"({"kept":1} x)", R"({"kept":)",
        "{\"dropped\":\"\xff\"}", R"({"dropped":[1,2})",
        "{\"dropped\":\"a\nb\"}", ""}) {
    SCOPED_TRACE(text);
    auto parsed = ParsePruned(text, keep, "page");
    ASSERT_FALSE(parsed.ok());
    EXPECT_EQ(parsed.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(parsed.status().message().rfind("page: malformed JSON (", 0), 0u)
        << parsed.status().message();
  }
}

TEST(ParsePrunedTest, SkipsADroppedValueWithoutCheckingItsGrammar) {
  // simdjson On-Demand skips dropped values by counting brackets: what is
  // never read is not checked beyond UTF-8, strings and brackets.
  FieldTree keep;
  keep.Add({"kept"});
  for (const char* text :
       {R"({"dropped":[1,,tru 2],"kept":2})", R"({"dropped":"\x","kept":2})"}) {
    SCOPED_TRACE(text);
    auto parsed = ParsePruned(text, keep, "page");
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    EXPECT_EQ(*parsed, json::parse(R"({"kept":2})"));
  }
}

}  // namespace
}  // namespace gcushare::json
