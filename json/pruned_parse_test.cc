#include "json/pruned_parse.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

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

TEST(ParsePrunedTest, UnescapesKeysAndStringsThatHoldEscapes) {
  // Strings without an escape are taken as written, the others unescaped:
  // a key matches the tree by its unescaped text, either way.
  FieldTree keep;
  keep.Add({"metadata", "name"}).Add({"metadata", "a\"b"});
  const char* text = R"({"metad\u0061ta": {"n\u0061me": "x\"y\\z\u00e9",
      "a\"b": "\n", "plain": "dropped", "na\\me": "dropped"},
      "metadata2": 1})";
  auto pruned = ParsePruned(text, keep, "pod");
  ASSERT_TRUE(pruned.ok()) << pruned.status();
  EXPECT_EQ(*pruned, json::parse(R"({"metadata": {"name": "x\"y\\z\u00e9",
      "a\"b": "\n"}})"));
  // Everything kept: the same as a whole parse.
  auto whole = ParsePruned(text, FieldTree(), "pod");
  ASSERT_TRUE(whole.ok()) << whole.status();
  EXPECT_EQ(*whole, json::parse(text));
  // A malformed escape fails as before.
  EXPECT_FALSE(
      ParsePruned(R"({"metadata": {"name": "\x"}})", keep, "pod").ok());
  EXPECT_FALSE(ParsePruned(R"({"metadata": {"n\xme": 1}})", keep, "pod").ok());
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

// For a text whose depth the caller checked (a list item the splitter cut
// out): the same result as Parse(), the depth bound still holding in kept
// values; a deep dropped value is skipped, not refused (the caller's bound
// was to refuse it).
TEST(ParsePrunedTest, DepthCheckedTextDecodesAsParseDoes) {
  FieldTree keep;
  keep.Add({"metadata", "name"}).Add({"spec", "containers", "name"});
  const std::string pod =
      R"({"metadata":{"name":"p","labels":{"a":"b"}},"spec":{"containers":)"
      R"([{"name":"c","image":"i"},{"name":"d"}]},"status":{"phase":"x"}})";
  PrunedParser parser;
  auto checked = parser.ParseDepthChecked(pod, keep, "item");
  auto parsed = parser.Parse(pod, keep, "item");
  ASSERT_TRUE(checked.ok()) << checked.status();
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(*checked, *parsed);
  EXPECT_EQ(*checked, json::parse(R"({"metadata":{"name":"p"},"spec":)"
                                  R"({"containers":[{"name":"c"},)"
                                  R"({"name":"d"}]}})"));

  FieldTree kept;
  kept.Add({"kept"});
  auto deep_kept =
      parser.ParseDepthChecked("{\"kept\":" + Nested(200) + "}", kept, "item");
  ASSERT_FALSE(deep_kept.ok());
  EXPECT_EQ(deep_kept.status().message(),
            "item: nested deeper than 100 levels");
  auto deep_dropped = parser.ParseDepthChecked(
      "{\"dropped\":" + Nested(200) + ",\"kept\":1}", kept, "item");
  ASSERT_TRUE(deep_dropped.ok()) << deep_dropped.status();
  EXPECT_EQ(*deep_dropped, json::parse(R"({"kept":1})"));
  auto malformed = parser.ParseDepthChecked(R"({"kept":tru})", kept, "item");
  ASSERT_FALSE(malformed.ok());
  EXPECT_EQ(malformed.status().code(), StatusCode::kInvalidArgument);
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

// ParseEach hands over each item, pruned, with the fields before it, and
// returns the rest; it agrees with Parse, and refuses what Parse refuses.
TEST(ParsePrunedTest, ParseEachHandsOverItemsOneAtATime) {
  FieldTree keep;
  keep.Add({"metadata", "continue"}).Add({"items", "name"});
  const std::string page =
      R"({"kind":"L","metadata":{"continue":"t","x":1},)"
      R"("items":[{"name":"a","big":[1,2]},{"name":"b"}],"after":true})";
  PrunedParser parser;
  std::vector<json> items;
  std::vector<json> roots;
  auto rest = parser.ParseEach(
      page, keep, "items",
      [&](json item, const json& root) {
        items.push_back(std::move(item));
        roots.push_back(root);
      },
      "page");
  ASSERT_TRUE(rest.ok()) << rest.status();
  EXPECT_EQ(*rest, json::parse(R"({"metadata":{"continue":"t"}})"));
  EXPECT_EQ(items,
            (std::vector<json>{json{{"name", "a"}}, json{{"name", "b"}}}));
  ASSERT_EQ(roots.size(), 2u);
  EXPECT_EQ(roots[0], *rest);
  auto whole = parser.Parse(page, keep, "page");
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ((*whole)["items"], json(items));

  // Not an array: kept as sent, nothing handed over.
  items.clear();
  auto scalar = parser.ParseEach(
      R"({"items":3})", FieldTree(), "items",
      [&](json item, const json&) { items.push_back(std::move(item)); },
      "page");
  ASSERT_TRUE(scalar.ok());
  EXPECT_EQ(*scalar, json::parse(R"({"items":3})"));
  EXPECT_TRUE(items.empty());

  // Malformed after the first item: that item went over, then the error.
  items.clear();
  auto broken = parser.ParseEach(
      R"({"items":[{"name":"a"},{"name":tru}]})", keep, "items",
      [&](json item, const json&) { items.push_back(std::move(item)); },
      "page");
  ASSERT_FALSE(broken.ok());
  EXPECT_EQ(broken.status().message().rfind("page: malformed JSON (", 0), 0u);
  // Too deep: refused before anything is handed over.
  items.clear();
  auto deep = parser.ParseEach(
      "{\"items\":[{\"name\":\"a\"}," + Nested(200) + "]}", keep, "items",
      [&](json item, const json&) { items.push_back(std::move(item)); },
      "page");
  ASSERT_FALSE(deep.ok());
  EXPECT_TRUE(items.empty());
}

TEST(PreparedTextTest, ParsesAsTheTextDoesAndRefusesWhatIsTooDeep) {
  FieldTree keep;
  keep.Add({"metadata", "continue"}).Add({"items", "name"});
  const std::string page =
      R"({"metadata":{"continue":"t"},"items":[{"name":"a","x":1},)"
      R"({"name":"b"}],"rest":[1]})";
  PrunedParser parser;
  std::vector<json> from_text;
  auto by_text = parser.ParseEach(
      page, keep, "items",
      [&](json item, const json&) { from_text.push_back(std::move(item)); },
      "page");
  ASSERT_TRUE(by_text.ok()) << by_text.status();

  // The page, and the page with a long tail (a buffer of another size).
  for (const std::string& text : {page, page + std::string(5000, ' ')}) {
    StatusOr<PreparedText> prepared = PreparedText::Make(text, "page");
    ASSERT_TRUE(prepared.ok()) << prepared.status();
    EXPECT_EQ(prepared->text(), text);
    EXPECT_EQ(prepared->max_depth(), kMaxJsonDepth);
    std::vector<json> from_prepared;
    auto by_prepared = parser.ParseEach(
        *prepared, keep, "items",
        [&](json item, const json&) {
          from_prepared.push_back(std::move(item));
        },
        "page");
    ASSERT_TRUE(by_prepared.ok()) << by_prepared.status();
    EXPECT_EQ(*by_prepared, *by_text);
    EXPECT_EQ(from_prepared, from_text);
  }

  // The pre-scan's bound and error, kept or dropped, as ParseEach()'s.
  StatusOr<PreparedText> deep =
      PreparedText::Make("{\"x\":" + Nested(200) + "}", "page");
  ASSERT_FALSE(deep.ok());
  EXPECT_EQ(deep.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(deep.status().message(), "page: nested deeper than 100 levels");
  EXPECT_TRUE(PreparedText::Make(Nested(4), "page", 4).ok());
  EXPECT_FALSE(PreparedText::Make(Nested(5), "page", 4).ok());
  // The depth bound travels with the text: Convert() stops there too.
  StatusOr<PreparedText> shallow = PreparedText::Make(Nested(4), "page", 4);
  ASSERT_TRUE(shallow.ok());
  EXPECT_EQ(shallow->max_depth(), 4);
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
