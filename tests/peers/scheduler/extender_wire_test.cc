#include "tests/peers/scheduler/extender_wire.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "testing/files.h"
#include "testing/subprocess.h"
#include "tests/peers/scheduler/go_json.h"

namespace gcushare::scheduler {
namespace {

std::string Capture(const std::string& name) {
  std::string text = testing::ReadFileOrEmpty(
      testing::RunfilePath("tests/conformance/" + name));
  EXPECT_FALSE(text.empty()) << name;
  return text;
}

// Re-encodes a captured ExtenderArgs body from its parsed (key-sorted)
// form: the result must be the captured bytes, so the Go field order and
// escaping are right.
std::string ReEncode(const std::string& raw) {
  const nlohmann::json parsed = nlohmann::json::parse(raw);
  std::vector<ObjectPtr> nodes;
  const bool cache_capable = parsed["NodeNames"].is_array();
  if (cache_capable) {
    for (const auto& name : parsed["NodeNames"]) {
      nodes.push_back(std::make_shared<const nlohmann::json>(
          nlohmann::json{{"metadata", {{"name", name}}}}));
    }
  } else {
    for (const auto& node : parsed["Nodes"]["items"]) {
      nodes.push_back(std::make_shared<const nlohmann::json>(node));
    }
  }
  return EncodeExtenderArgs(parsed["Pod"], nodes, cache_capable);
}

class CaptureTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CaptureTest, ExtenderArgsMatchCapturedBytes) {
  const std::string raw = Capture(GetParam());
  EXPECT_EQ(ReEncode(raw), raw);
}

INSTANTIATE_TEST_SUITE_P(
    KubeScheduler126, CaptureTest,
    ::testing::Values("extender-ncc-true-filter-request-1node.raw",
                      "extender-ncc-true-filter-request-2nodes.raw",
                      "extender-ncc-true-prioritize-request-2nodes.raw",
                      "extender-ncc-false-filter-2nodes.request.raw",
                      "extender-ncc-false-filter-error.request.raw",
                      "extender-ncc-false-filter-failall.request.raw",
                      "extender-ncc-false-filter-failall-same.request.raw",
                      "extender-ncc-false-prioritize-2nodes.request.raw"));

TEST(ExtenderWireTest, TypeMetaIsDropped) {
  const nlohmann::json pod = {
      {"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", {{"name", "p"}}}};
  EXPECT_EQ(EncodeExtenderArgs(pod, {}, true),
            R"({"Pod":{"metadata":{"name":"p"}},"Nodes":null,"NodeNames":[]})");
  EXPECT_EQ(
      EncodeExtenderArgs(pod, {}, false),
      R"({"Pod":{"metadata":{"name":"p"}},"Nodes":{"metadata":{},"items":null},"NodeNames":null})");
}

TEST(ExtenderWireTest, BindingArgsMatchCapturedBytes) {
  EXPECT_EQ(
      EncodeBindingArgs("gcu-pod-1", "default",
                        "0ff9e184-bf5f-411f-818c-a46f6ad61806", "gcu-node-0"),
      Capture("extender-ncc-true-bind-request.raw"));
}

TEST(GoJsonTest, EscapesLikeGo) {
  std::string out;
  AppendGoJsonString("a<b>&\"\\\n\t\x01\x7f\xE2\x80\xA8\xC3\xA9\xFF", out);
  EXPECT_EQ(out,
            "\"a\\u003cb\\u003e\\u0026\\\"\\\\\\n\\t\\u0001\x7f\\u2028\xC3\xA9"
            "\\ufffd\"");
}

TEST(GoJsonTest, UnknownFieldsFollowKnownOnesSorted) {
  const nlohmann::json pod = {
      {"zeta", 1}, {"status", {}}, {"alpha", 2}, {"metadata", {}}};
  EXPECT_EQ(GoJson(pod, kGoPod),
            R"({"metadata":null,"status":null,"alpha":2,"zeta":1})");
}

TEST(ExtenderWireTest, ParsesCapturedFilterReplies) {
  auto ok = ParseFilterReply(
      Capture("extender-ncc-false-filter-2nodes.response.json"));
  ASSERT_TRUE(ok.ok()) << ok.status();
  ASSERT_TRUE(ok->nodes.has_value());
  ASSERT_EQ(ok->nodes->size(), 2u);
  EXPECT_EQ((*ok->nodes)[1]["metadata"]["name"], "gcu-node-1");
  EXPECT_FALSE(ok->node_names.has_value());

  auto error = ParseFilterReply(
      Capture("extender-ncc-false-filter-error.response.json"));
  ASSERT_TRUE(error.ok());
  EXPECT_EQ(error->error, "gcushare: simulated extender filter error");
  EXPECT_FALSE(error->nodes.has_value());

  auto failed = ParseFilterReply(
      Capture("extender-ncc-false-filter-failall.response.json"));
  ASSERT_TRUE(failed.ok());
  EXPECT_EQ(failed->failed_nodes.at("gcu-node-1"),
            "gcushare: insufficient GCU memory on gcu-node-1");
}

TEST(ExtenderWireTest, RepliesMatchKeysIgnoringCase) {
  auto reply = ParseFilterReply(
      R"({"nodenames":["a"],"failedNodes":{"b":"full"},"error":""})");
  ASSERT_TRUE(reply.ok());
  ASSERT_TRUE(reply->node_names.has_value());
  EXPECT_EQ(reply->node_names->at(0), "a");
  EXPECT_EQ(reply->failed_nodes.at("b"), "full");

  auto scores = ParseHostPriorityList(
      Capture("extender-ncc-false-prioritize-2nodes.response.json"));
  ASSERT_TRUE(scores.ok());
  ASSERT_EQ(scores->size(), 2u);
  EXPECT_EQ((*scores)[1].host, "gcu-node-1");
  EXPECT_EQ((*scores)[1].score, 4);
  auto lower = ParseHostPriorityList(R"([{"host":"x","score":7}])");
  ASSERT_TRUE(lower.ok());
  EXPECT_EQ((*lower)[0].score, 7);
}

TEST(ExtenderWireTest, BadRepliesAreErrors) {
  EXPECT_EQ(ParseFilterReply("").status().message(), "EOF");
  EXPECT_FALSE(ParseFilterReply("[1]").ok());
  EXPECT_FALSE(ParseFilterReply(R"({"NodeNames":"a"})").ok());
  EXPECT_FALSE(ParseFilterReply(R"({"FailedNodes":{"a":1}})").ok());
  EXPECT_FALSE(ParseHostPriorityList(R"([{"Host":"a","Score":"5"}])").ok());
  EXPECT_FALSE(ParseBindingReply("{").ok());
  auto null_reply = ParseFilterReply("null");
  ASSERT_TRUE(null_reply.ok());
  EXPECT_FALSE(null_reply->node_names.has_value());
  auto bind = ParseBindingReply(R"({"Error":"no card"} trailing)");
  ASSERT_TRUE(bind.ok());
  EXPECT_EQ(*bind, "no card");
}

}  // namespace
}  // namespace gcushare::scheduler
