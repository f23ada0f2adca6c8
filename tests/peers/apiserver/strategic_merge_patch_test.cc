#include "tests/peers/apiserver/strategic_merge_patch.h"

#include <gtest/gtest.h>

#include "tests/peers/apiserver/resource_kind.h"

namespace gcushare::apiserver {
namespace {

struct Case {
  const char* name;
  const char* original;
  const char* patch;
  const char* result;
};

class StrategicMergePatchTest : public ::testing::TestWithParam<Case> {};

TEST_P(StrategicMergePatchTest, PodSchema) {
  const Case& c = GetParam();
  auto original = ParseJson(c.original);
  auto patch = ParseJson(c.patch);
  auto want = ParseJson(c.result);
  ASSERT_TRUE(original.ok() && patch.ok() && want.ok()) << c.name;
  auto got =
      ApplyStrategicMergePatch(*original, *patch, PodKind().merge_schema);
  ASSERT_TRUE(got.ok()) << c.name << ": " << got.status();
  EXPECT_TRUE(SameJson(*got, *want)) << c.name << ": " << DumpJson(*got);
}

INSTANTIATE_TEST_SUITE_P(
    Table, StrategicMergePatchTest,
    ::testing::Values(
        Case{"maps merge and null deletes",
             R"({"metadata":{"annotations":{"gone":"x","keep":"y"}}})",
             R"({"metadata":{"annotations":{"k":"v","gone":null}}})",
             R"({"metadata":{"annotations":{"keep":"y","k":"v"}}})"},
        Case{"conditions merge by type",
             R"({"status":{"conditions":[
                 {"type":"Ready","status":"False"},
                 {"type":"PodScheduled","status":"True"}]}})",
             R"({"status":{"conditions":[
                 {"type":"Ready","status":"True"},
                 {"type":"Initialized","status":"True"}]}})",
             R"({"status":{"conditions":[
                 {"type":"Ready","status":"True"},
                 {"type":"PodScheduled","status":"True"},
                 {"type":"Initialized","status":"True"}]}})"},
        Case{"containers merge by name, env by name inside",
             R"({"spec":{"containers":[
                 {"name":"a","image":"x:1","env":[{"name":"E1","value":"1"}]},
                 {"name":"b","image":"y:1"}]}})",
             R"({"spec":{"containers":[
                 {"name":"a","env":[{"name":"E2","value":"2"},
                                    {"name":"E1","value":"one"}]}]}})",
             R"({"spec":{"containers":[
                 {"name":"a","image":"x:1","env":[{"name":"E1","value":"one"},
                                                  {"name":"E2","value":"2"}]},
                 {"name":"b","image":"y:1"}]}})"},
        Case{"ports merge by containerPort",
             R"({"spec":{"containers":[{"name":"a","ports":[
                 {"containerPort":80,"name":"http"}]}]}})",
             R"({"spec":{"containers":[{"name":"a","ports":[
                 {"containerPort":80,"protocol":"TCP"},
                 {"containerPort":443}]}]}})",
             R"({"spec":{"containers":[{"name":"a","ports":[
                 {"containerPort":80,"name":"http","protocol":"TCP"},
                 {"containerPort":443}]}]}})"},
        Case{"$patch delete removes a keyed element",
             R"({"spec":{"containers":[{"name":"a"},{"name":"b"}]}})",
             R"({"spec":{"containers":[{"name":"a","$patch":"delete"}]}})",
             R"({"spec":{"containers":[{"name":"b"}]}})"},
        Case{"$patch replace in a list replaces it",
             R"({"spec":{"volumes":[{"name":"a"},{"name":"b"}]}})",
             R"({"spec":{"volumes":[{"$patch":"replace"},{"name":"c"}]}})",
             R"({"spec":{"volumes":[{"name":"c"}]}})"},
        Case{"$patch replace on a map",
             R"({"spec":{"nodeSelector":{"a":"1","b":"2"}}})",
             R"({"spec":{"nodeSelector":{"$patch":"replace","c":"3"}}})",
             R"({"spec":{"nodeSelector":{"c":"3"}}})"},
        Case{"tolerations have no merge key: replaced",
             R"({"spec":{"tolerations":[{"key":"a"},{"key":"b"}]}})",
             R"({"spec":{"tolerations":[{"key":"c"}]}})",
             R"({"spec":{"tolerations":[{"key":"c"}]}})"},
        Case{"finalizers merge as a set",
             R"({"metadata":{"finalizers":["a","b"]}})",
             R"({"metadata":{"finalizers":["b","c"]}})",
             R"({"metadata":{"finalizers":["a","b","c"]}})"},
        Case{"$deleteFromPrimitiveList",
             R"({"metadata":{"finalizers":["a","b","c"]}})",
             R"({"metadata":{"$deleteFromPrimitiveList/finalizers":["b"]}})",
             R"({"metadata":{"finalizers":["a","c"]}})"},
        Case{"$setElementOrder is accepted and ignored",
             R"({"spec":{"containers":[{"name":"a"}]}})",
             R"({"spec":{"$setElementOrder/containers":[{"name":"a"}],
                 "containers":[{"name":"a","image":"x"}]}})",
             R"({"spec":{"containers":[{"name":"a","image":"x"}]}})"},
        Case{"$retainKeys drops unlisted keys",
             R"({"spec":{"strategy":{"type":"A","rollingUpdate":{"x":1}}}})",
             R"({"spec":{"strategy":{"$retainKeys":["type"],"type":"B"}}})",
             R"({"spec":{"strategy":{"type":"B"}}})"},
        Case{"new keyed list added where none was, directives dropped",
             R"({"status":{}})",
             R"({"status":{"conditions":[{"type":"A","x":null},
                                         {"type":"B","$patch":"delete"}]}})",
             R"({"status":{"conditions":[{"type":"A"}]}})"},
        Case{"volumeMounts merge by mountPath",
             R"({"spec":{"containers":[{"name":"a","volumeMounts":[
                 {"name":"v","mountPath":"/x"}]}]}})",
             R"({"spec":{"containers":[{"name":"a","volumeMounts":[
                 {"name":"w","mountPath":"/x","readOnly":true}]}]}})",
             R"({"spec":{"containers":[{"name":"a","volumeMounts":[
                 {"name":"w","mountPath":"/x","readOnly":true}]}]}})"}));

TEST(StrategicMergePatchErrorTest, ElementWithoutMergeKey) {
  auto original = ParseJson(R"({"spec":{"containers":[{"name":"a"}]}})");
  auto patch = ParseJson(R"({"spec":{"containers":[{"image":"x"}]}})");
  ASSERT_TRUE(original.ok() && patch.ok());
  auto got =
      ApplyStrategicMergePatch(*original, *patch, PodKind().merge_schema);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), StatusCode::kInternal);
  EXPECT_EQ(got.status().message(),
            "map: map[image:x] does not contain declared merge key: name");
}

TEST(StrategicMergePatchErrorTest, NonObjectPatch) {
  auto got = ApplyStrategicMergePatch(Json::object(), Json::array(),
                                      PodKind().merge_schema);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), StatusCode::kInvalidArgument);
}

TEST(StrategicMergePatchNodeTest, NodeConditionsAndAddressesMergeByType) {
  auto original = ParseJson(R"({"status":{
      "conditions":[{"type":"Ready","status":"True"}],
      "addresses":[{"type":"InternalIP","address":"10.0.0.1"}]}})");
  auto patch = ParseJson(R"({"status":{
      "conditions":[{"type":"MemoryPressure","status":"False"}],
      "addresses":[{"type":"Hostname","address":"n1"}]}})");
  ASSERT_TRUE(original.ok() && patch.ok());
  auto got =
      ApplyStrategicMergePatch(*original, *patch, NodeKind().merge_schema);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ((*got)["status"]["conditions"].size(), 2u);
  EXPECT_EQ((*got)["status"]["addresses"].size(), 2u);
}

}  // namespace
}  // namespace gcushare::apiserver
