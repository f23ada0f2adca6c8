// The stand-in kube-scheduler's extender codec (extender_wire.h) against
// the extender's own (extender/protocol.h): they share no code, so this is
// where the two must agree. Requests the stand-in writes (for the captured
// kube-scheduler v1.26 bodies in both nodeCacheCapable modes) must read in
// the extender as the captured bytes do, and every reply the extender
// writes must read in the stand-in as kube-scheduler's Go types would.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "extender/protocol.h"
#include "testing/files.h"
#include "testing/subprocess.h"
#include "tests/peers/scheduler/extender_wire.h"

namespace gcushare::scheduler {
namespace {

std::string Capture(const std::string& name) {
  std::string text = testing::ReadFileOrEmpty(
      testing::RunfilePath("tests/conformance/" + name));
  EXPECT_FALSE(text.empty()) << name;
  return text;
}

std::shared_ptr<const nlohmann::json> Node(const std::string& name) {
  return std::make_shared<const nlohmann::json>(nlohmann::json{
      {"metadata", {{"name", name}, {"labels", {{"gcu", "true"}}}}},
      {"status", {{"allocatable", {{"enflame.com/gcu-memory", "32"}}}}}});
}

// What the stand-in sends for the captured request's pod and nodes.
std::string StandInRequest(const nlohmann::json& captured) {
  std::vector<ObjectPtr> nodes;
  const bool cache_capable = captured["NodeNames"].is_array();
  if (cache_capable) {
    for (const auto& name : captured["NodeNames"]) {
      nodes.push_back(std::make_shared<const nlohmann::json>(
          nlohmann::json{{"metadata", {{"name", name}}}}));
    }
  } else {
    for (const auto& node : captured["Nodes"]["items"]) {
      nodes.push_back(std::make_shared<const nlohmann::json>(node));
    }
  }
  return EncodeExtenderArgs(captured["Pod"], nodes, cache_capable);
}

class CapturedRequest : public ::testing::TestWithParam<std::string> {};

// As JSON values the stand-in's body is the captured one, and the extender
// reads both the same way.
TEST_P(CapturedRequest, StandInRequestIsKubeSchedulersAndTheExtenderReadsIt) {
  const std::string raw = Capture(GetParam());
  const nlohmann::json captured = nlohmann::json::parse(raw);
  const std::string ours = StandInRequest(captured);
  EXPECT_EQ(nlohmann::json::parse(ours), captured);

  auto from_capture = extender::ParseExtenderArgs(raw);
  auto from_stand_in = extender::ParseExtenderArgs(ours);
  ASSERT_TRUE(from_capture.ok()) << from_capture.status();
  ASSERT_TRUE(from_stand_in.ok()) << from_stand_in.status();
  EXPECT_EQ(from_stand_in->CandidateNames(), from_capture->CandidateNames());
  EXPECT_FALSE(from_stand_in->CandidateNames().empty());
  EXPECT_EQ(from_stand_in->node_names.has_value(),
            captured["NodeNames"].is_array());
  EXPECT_EQ(from_stand_in->pod, from_capture->pod);
}

INSTANTIATE_TEST_SUITE_P(
    KubeScheduler126, CapturedRequest,
    ::testing::Values("extender-ncc-true-filter-request-1node.raw",
                      "extender-ncc-true-filter-request-2nodes.raw",
                      "extender-ncc-true-prioritize-request-2nodes.raw",
                      "extender-ncc-false-filter-2nodes.request.raw",
                      "extender-ncc-false-prioritize-2nodes.request.raw"));

TEST(ExtenderConformanceTest, BindingRequestReadsInTheExtender) {
  auto args = extender::ParseBindingArgs(
      EncodeBindingArgs("p<1>", "default", "uid-1", "gcu-node-0"));
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_EQ(args->pod_name, "p<1>");
  EXPECT_EQ(args->pod_namespace, "default");
  EXPECT_EQ(args->pod_uid, "uid-1");
  EXPECT_EQ(args->node, "gcu-node-0");
}

// Filter replies in both modes: names for a cache-capable request, the
// request's Node objects otherwise.
TEST(ExtenderConformanceTest, StandInReadsTheExtendersFilterReplies) {
  const nlohmann::json pod = {{"metadata", {{"name", "p"}}}};
  const std::vector<ObjectPtr> nodes = {Node("n0"), Node("n1"), Node("n2")};
  extender::FilterResult result;
  result.passed = {"n0", "n2"};
  result.failed = {{"n1", "gcushare: insufficient GCU memory on n1"}};
  result.failed_unresolvable = {{"n3", "no GCU"}};

  for (bool cache_capable : {true, false}) {
    SCOPED_TRACE(cache_capable ? "NodeNames" : "Nodes");
    auto args = extender::ParseExtenderArgs(
        EncodeExtenderArgs(pod, nodes, cache_capable));
    ASSERT_TRUE(args.ok()) << args.status();
    auto reply = ParseFilterReply(extender::EncodeFilterResult(*args, result));
    ASSERT_TRUE(reply.ok()) << reply.status();
    std::vector<std::string> passed;
    if (cache_capable) {
      ASSERT_TRUE(reply->node_names.has_value());
      EXPECT_FALSE(reply->nodes.has_value());
      passed = *reply->node_names;
    } else {
      ASSERT_TRUE(reply->nodes.has_value());
      EXPECT_FALSE(reply->node_names.has_value());
      for (const nlohmann::json& node : *reply->nodes) {
        passed.push_back(node["metadata"]["name"]);
      }
      // The Node objects come back whole.
      EXPECT_EQ(reply->nodes->at(1), *nodes[2]);
    }
    EXPECT_EQ(passed, result.passed);
    EXPECT_EQ(reply->failed_nodes, result.failed);
    EXPECT_EQ(reply->failed_and_unresolvable, result.failed_unresolvable);
    EXPECT_EQ(reply->error, "");
  }

  auto error =
      ParseFilterReply(extender::EncodeFilterError("cache not synced"));
  ASSERT_TRUE(error.ok()) << error.status();
  EXPECT_EQ(error->error, "cache not synced");
}

TEST(ExtenderConformanceTest, StandInReadsTheExtendersPriorityAndBindReplies) {
  auto scores = ParseHostPriorityList(
      extender::EncodeHostPriorityList({{"n0", 3}, {"n1", 10}}));
  ASSERT_TRUE(scores.ok()) << scores.status();
  ASSERT_EQ(scores->size(), 2u);
  EXPECT_EQ((*scores)[0].host, "n0");
  EXPECT_EQ((*scores)[0].score, 3);
  EXPECT_EQ((*scores)[1].score, 10);
  auto empty = ParseHostPriorityList(extender::EncodeHostPriorityList({}));
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_TRUE(empty->empty());

  auto bound = ParseBindingReply(extender::EncodeBindingResult(""));
  ASSERT_TRUE(bound.ok()) << bound.status();
  EXPECT_EQ(*bound, "");
  auto refused = ParseBindingReply(extender::EncodeBindingResult("no card"));
  ASSERT_TRUE(refused.ok()) << refused.status();
  EXPECT_EQ(*refused, "no card");
}

// Go's decoder: a key names a field ignoring case (with the Kelvin sign
// folding onto k), and the last such key wins.
TEST(ExtenderConformanceTest, KeysFoldAndTheLastDuplicateWins) {
  auto reply = ParseFilterReply(
      R"({"Error":"first","NODENAMES":["a"],"error":"second"})");
  ASSERT_TRUE(reply.ok()) << reply.status();
  EXPECT_EQ(reply->error, "second");
  ASSERT_TRUE(reply->node_names.has_value());
  EXPECT_EQ(reply->node_names->at(0), "a");
  auto kelvin = ParseFilterReply("{\"Error\":\"x\",\"\xE2\x84\xAA\":1}");
  ASSERT_TRUE(kelvin.ok());
  auto host = ParseHostPriorityList(
      "[{\"Host\":\"h\",\"Score\":1,"
      "\"\xC5\xBF"
      "core\":2}]");
  ASSERT_TRUE(host.ok()) << host.status();
  EXPECT_EQ((*host)[0].score, 2);
  EXPECT_FALSE(
      ParseHostPriorityList(R"([{"Score":9223372036854775808}])").ok());
  EXPECT_FALSE(ParseHostPriorityList(R"([{"Score":4.5}])").ok());
}

}  // namespace
}  // namespace gcushare::scheduler
