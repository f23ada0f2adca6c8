#include "kubectl-plugin/inspect_report.h"

#include <gtest/gtest.h>

#include "testing/files.h"
#include "testing/subprocess.h"

namespace gcushare::kubectl_plugin {
namespace {

TEST(InspectReportTest, ParsesTheExtenderShapeSorted) {
  std::string body = testing::ReadFileOrEmpty(
      testing::RunfilePath("kubectl-plugin/testdata/inspect.json"));
  ASSERT_FALSE(body.empty());
  auto nodes = ParseInspect(body);
  ASSERT_TRUE(nodes.ok()) << nodes.status().ToString();
  ASSERT_EQ(nodes->size(), 2u);
  const NodeReport& a = (*nodes)[0];
  EXPECT_EQ(a.name, "node-a");
  EXPECT_EQ(a.memory_unit, "1");
  ASSERT_EQ(a.cards.size(), 1u);
  EXPECT_FALSE(a.cards[0].healthy);
  const NodeReport& b = (*nodes)[1];
  EXPECT_EQ(b.name, "node-b");
  EXPECT_EQ(b.memory_unit, "0.1");
  EXPECT_EQ(b.total, 320u);
  EXPECT_EQ(b.used, 205u);
  ASSERT_EQ(b.cards.size(), 2u);
  EXPECT_EQ(b.cards[0].index, 0);
  EXPECT_EQ(b.cards[1].index, 1);
  ASSERT_EQ(b.cards[0].pods.size(), 2u);
  EXPECT_EQ(b.cards[0].pods[0].name, "infer-1");
  EXPECT_EQ(b.cards[0].pods[0].used, 40u);
  EXPECT_FALSE(b.cards[0].pods[0].assumed);
  EXPECT_EQ(b.cards[0].pods[1].name, "infer-2");
  EXPECT_TRUE(b.cards[0].pods[1].assumed);
  EXPECT_EQ(b.cards[1].pods[0].ns, "ml");
}

TEST(InspectReportTest, OneNodeAndProblemsAndEmpty) {
  auto one = ParseInspect(
      R"({"nodes":[{"name":"n","totalGCU":0,"usedGCU":0,"availableGCU":0,
          "devices":[],"memoryUnit":"","problem":"bad annotation"}]})");
  ASSERT_TRUE(one.ok()) << one.status().ToString();
  ASSERT_EQ(one->size(), 1u);
  EXPECT_EQ((*one)[0].problem, "bad annotation");
  EXPECT_TRUE((*one)[0].cards.empty());
  auto none = ParseInspect("{\"nodes\":[]}\n");
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

TEST(InspectReportTest, RejectsBadShapesNamingThePath) {
  struct Case {
    const char* body;
    const char* message;
  };
  const Case cases[] = {
      {"<html>", "malformed JSON"},
      {"\"text\"", "with a \"nodes\" array"},
      // The shape before the vendor's (a bare array / node object).
      {R"([{"name":"n"}])", "with a \"nodes\" array"},
      {R"({"name":"n","devices":{}})", "with a \"nodes\" array"},
      {R"({"nodes":{}})", "with a \"nodes\" array"},
      {R"({"nodes":[1]})", "nodes[0] is not an object"},
      {R"({"nodes":[{"totalGCU":1}]})", "nodes[0].name"},
      {R"({"nodes":[{"name":"n","totalGCU":-1}]})", "nodes[0](n).totalGCU"},
      {R"({"nodes":[{"name":"n","usedGCU":"3"}]})", "nodes[0](n).usedGCU"},
      {R"({"nodes":[{"name":"n","devices":{"0":{}}}]})",
       "nodes[0](n).devices is not an array"},
      {R"({"nodes":[{"name":"n","devices":[{}]}]})",
       "devices[0].id is not a card index"},
      {R"({"nodes":[{"name":"n","devices":[{"id":-1}]}]})",
       "devices[0].id is not a card index"},
      {R"({"nodes":[{"name":"n","devices":[{"id":0,"healthy":"yes"}]}]})",
       "devices[0].healthy is not a boolean"},
      {R"({"nodes":[{"name":"n","devices":[{"id":0,"pods":{}}]}]})",
       "devices[0].pods is not an array"},
      {R"({"nodes":[{"name":"n","devices":[{"id":0,"pods":[{"name":1}]}]}]})",
       "devices[0].pods[0].name is not a string"},
  };
  for (const Case& c : cases) {
    auto nodes = ParseInspect(c.body);
    ASSERT_FALSE(nodes.ok()) << c.body;
    EXPECT_EQ(nodes.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(nodes.status().message().find(c.message), std::string::npos)
        << nodes.status().message();
  }
}

}  // namespace
}  // namespace gcushare::kubectl_plugin
