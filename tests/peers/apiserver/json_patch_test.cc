#include "tests/peers/apiserver/json_patch.h"

#include <gtest/gtest.h>

namespace gcushare::apiserver {
namespace {

struct Case {
  const char* name;
  const char* document;
  const char* patch;
  const char* result;  // nullptr: the patch must fail to apply.
};

class JsonPatchTest : public ::testing::TestWithParam<Case> {};

TEST_P(JsonPatchTest, Rfc6902) {
  const Case& c = GetParam();
  auto doc = ParseJson(c.document);
  auto patch = ParseJson(c.patch);
  ASSERT_TRUE(doc.ok() && patch.ok()) << c.name;
  auto got = ApplyJsonPatch(*doc, *patch);
  if (c.result == nullptr) {
    ASSERT_FALSE(got.ok()) << c.name << ": " << DumpJson(*got);
    EXPECT_EQ(got.status().code(), StatusCode::kFailedPrecondition)
        << c.name << ": " << got.status();
    return;
  }
  ASSERT_TRUE(got.ok()) << c.name << ": " << got.status();
  auto want = ParseJson(c.result);
  ASSERT_TRUE(want.ok());
  EXPECT_TRUE(SameJson(*got, *want)) << c.name << ": " << DumpJson(*got);
}

// RFC 6902 appendix A examples (A.1-A.16), then Kubernetes-shaped cases.
INSTANTIATE_TEST_SUITE_P(
    Table, JsonPatchTest,
    ::testing::Values(
        Case{"A1 add object member", R"({"foo":"bar"})",
             R"([{"op":"add","path":"/baz","value":"qux"}])",
             R"({"baz":"qux","foo":"bar"})"},
        Case{"A2 add array element", R"({"foo":["bar","baz"]})",
             R"([{"op":"add","path":"/foo/1","value":"qux"}])",
             R"({"foo":["bar","qux","baz"]})"},
        Case{"A3 remove object member", R"({"baz":"qux","foo":"bar"})",
             R"([{"op":"remove","path":"/baz"}])", R"({"foo":"bar"})"},
        Case{"A4 remove array element", R"({"foo":["bar","qux","baz"]})",
             R"([{"op":"remove","path":"/foo/1"}])",
             R"({"foo":["bar","baz"]})"},
        Case{"A5 replace", R"({"baz":"qux","foo":"bar"})",
             R"([{"op":"replace","path":"/baz","value":"boo"}])",
             R"({"baz":"boo","foo":"bar"})"},
        Case{"A6 move value",
             R"({"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}})",
             R"([{"op":"move","from":"/foo/waldo","path":"/qux/thud"}])",
             R"({"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}})"},
        Case{"A7 move array element", R"({"foo":["all","grass","cows","eat"]})",
             R"([{"op":"move","from":"/foo/1","path":"/foo/3"}])",
             R"({"foo":["all","cows","eat","grass"]})"},
        Case{"A8 test success", R"({"baz":"qux","foo":["a",2,"c"]})",
             R"([{"op":"test","path":"/baz","value":"qux"},
                 {"op":"test","path":"/foo/1","value":2}])",
             R"({"baz":"qux","foo":["a",2,"c"]})"},
        Case{"A9 test error", R"({"baz":"qux"})",
             R"([{"op":"test","path":"/baz","value":"bar"}])", nullptr},
        Case{"A10 add nested member", R"({"foo":"bar"})",
             R"([{"op":"add","path":"/child","value":{"grandchild":{}}}])",
             R"({"foo":"bar","child":{"grandchild":{}}})"},
        Case{"A11 ignore unrecognized members", R"({"foo":"bar"})",
             R"([{"op":"add","path":"/baz","value":"qux","xyz":123}])",
             R"({"foo":"bar","baz":"qux"})"},
        Case{"A12 add to nonexistent target", R"({"foo":"bar"})",
             R"([{"op":"add","path":"/baz/bat","value":"qux"}])", nullptr},
        Case{"A14 ~ escape ordering", R"({"/":9,"~1":10})",
             R"([{"op":"test","path":"/~01","value":10}])",
             R"({"/":9,"~1":10})"},
        Case{"A15 comparing strings and numbers", R"({"/":9,"~1":10})",
             R"([{"op":"test","path":"/~01","value":"10"}])", nullptr},
        Case{"A16 add array value", R"({"foo":["bar"]})",
             R"([{"op":"add","path":"/foo/-","value":["abc","def"]}])",
             R"({"foo":["bar",["abc","def"]]})"},
        Case{"copy", R"({"a":{"b":1}})",
             R"([{"op":"copy","from":"/a","path":"/c"}])",
             R"({"a":{"b":1},"c":{"b":1}})"},
        Case{"~1 escapes a slash in a key",
             R"({"status":{"capacity":{"cpu":"4"}}})",
             R"([{"op":"add","path":"/status/capacity/example.com~1gpu",
                  "value":"4"}])",
             R"({"status":{"capacity":{"cpu":"4","example.com/gpu":"4"}}})"},
        Case{"remove missing key fails", R"({"a":1})",
             R"([{"op":"remove","path":"/b"}])", nullptr},
        Case{"replace missing key fails", R"({"a":1})",
             R"([{"op":"replace","path":"/b","value":2}])", nullptr},
        Case{"index out of range fails", R"({"a":[1]})",
             R"([{"op":"add","path":"/a/5","value":2}])", nullptr},
        Case{"leading zero index fails", R"({"a":[1,2]})",
             R"([{"op":"remove","path":"/a/01"}])", nullptr},
        Case{"unknown op fails", R"({"a":1})",
             R"([{"op":"frobnicate","path":"/a"}])", nullptr},
        Case{"move into own child fails", R"({"a":{"b":1}})",
             R"([{"op":"move","from":"/a","path":"/a/b/c"}])", nullptr},
        Case{"add at root replaces the document", R"({"a":1})",
             R"([{"op":"add","path":"","value":{"b":2}}])", R"({"b":2})"}));

TEST(JsonPatchAtomicityTest, FailingTestLeavesNothingApplied) {
  auto doc = ParseJson(R"({"metadata":{"labels":{"a":"1"}}})");
  auto patch = ParseJson(R"([
      {"op":"add","path":"/metadata/labels/b","value":"2"},
      {"op":"test","path":"/metadata/labels/a","value":"nope"}])");
  ASSERT_TRUE(doc.ok() && patch.ok());
  Json before = *doc;
  auto got = ApplyJsonPatch(*doc, *patch);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().message(),
            "testing value /metadata/labels/a failed: test failed");
  EXPECT_EQ(*doc, before);
}

TEST(JsonPatchAtomicityTest, NonArrayPatchIsInvalidArgument) {
  auto got = ApplyJsonPatch(Json::object(), Json::object());
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace gcushare::apiserver
