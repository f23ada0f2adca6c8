#include "tests/peers/apiserver/merge_patch.h"

#include <gtest/gtest.h>

namespace gcushare::apiserver {
namespace {

struct Case {
  const char* target;
  const char* patch;
  const char* result;
};

class MergePatchTest : public ::testing::TestWithParam<Case> {};

TEST_P(MergePatchTest, Rfc7386) {
  const Case& c = GetParam();
  auto target = ParseJson(c.target);
  auto patch = ParseJson(c.patch);
  auto want = ParseJson(c.result);
  ASSERT_TRUE(target.ok() && patch.ok() && want.ok());
  Json got = ApplyMergePatch(*target, *patch);
  EXPECT_TRUE(SameJson(got, *want))
      << c.target << " + " << c.patch << " = " << DumpJson(got);
}

// The examples of RFC 7386 appendix A, then Kubernetes-shaped ones.
INSTANTIATE_TEST_SUITE_P(
    Table, MergePatchTest,
    ::testing::Values(
        Case{R"({"a":"b"})", R"({"a":"c"})", R"({"a":"c"})"},
        Case{R"({"a":"b"})", R"({"b":"c"})", R"({"a":"b","b":"c"})"},
        Case{R"({"a":"b"})", R"({"a":null})", R"({})"},
        Case{R"({"a":"b","b":"c"})", R"({"a":null})", R"({"b":"c"})"},
        Case{R"({"a":["b"]})", R"({"a":"c"})", R"({"a":"c"})"},
        Case{R"({"a":"c"})", R"({"a":["b"]})", R"({"a":["b"]})"},
        Case{R"({"a":{"b":"c"}})", R"({"a":{"b":"d","c":null}})",
             R"({"a":{"b":"d"}})"},
        Case{R"({"a":[{"b":"c"}]})", R"({"a":[1]})", R"({"a":[1]})"},
        Case{R"(["a","b"])", R"(["c","d"])", R"(["c","d"])"},
        Case{R"({"a":"b"})", R"(["c"])", R"(["c"])"},
        Case{R"({"a":"foo"})", "null", "null"},
        Case{R"({"a":"foo"})", R"("bar")", R"("bar")"},
        Case{R"({"e":null})", R"({"a":1})", R"({"e":null,"a":1})"},
        Case{R"([1,2])", R"({"a":"b","c":null})", R"({"a":"b"})"},
        Case{R"({})", R"({"a":{"bb":{"ccc":null}}})", R"({"a":{"bb":{}}})"},
        // Annotations: set one, delete another.
        Case{R"({"metadata":{"annotations":{"gone":"x","keep":"y"}}})",
             R"({"metadata":{"annotations":{"k":"v","gone":null}}})",
             R"({"metadata":{"annotations":{"keep":"y","k":"v"}}})"},
        // Lists are replaced wholesale, conditions included.
        Case{R"({"status":{"conditions":[{"type":"A"},{"type":"B"}]}})",
             R"({"status":{"conditions":[{"type":"C"}]}})",
             R"({"status":{"conditions":[{"type":"C"}]}})"},
        // A key with a slash, as in extended resources.
        Case{R"({"status":{"capacity":{"cpu":"4"}}})",
             R"({"status":{"capacity":{"example.com/gpu":"4"}}})",
             R"({"status":{"capacity":{"cpu":"4","example.com/gpu":"4"}}})"}));

}  // namespace
}  // namespace gcushare::apiserver
