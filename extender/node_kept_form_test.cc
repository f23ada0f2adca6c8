// NodeKeptForm (extender/cache_feed.h) keeps only what the extender reads of
// a Node; what it keeps must read exactly as the whole object does.
#include <gtest/gtest.h>

#include "extender/cache_feed.h"
#include "extender/testing/objects.h"
#include "placement/node_view.h"

namespace gcushare::extender {

using placement::NodeView;
using placement::ReadNodeView;

namespace {

void ExpectSameView(const nlohmann::json& node) {
  std::optional<nlohmann::json> kept = NodeKeptForm(node);
  ASSERT_TRUE(kept.has_value());
  NodeView whole = ReadNodeView(node);
  NodeView read = ReadNodeView(*kept);
  EXPECT_EQ(read.name, whole.name);
  EXPECT_EQ(read.unit_text, whole.unit_text);
  EXPECT_EQ(read.layout, whole.layout);
  EXPECT_EQ(read.problem, whole.problem);
}

TEST(NodeKeptFormTest, ReadsLikeTheWholeNode) {
  nlohmann::json node = testing::SharingNode("n1", 2, 16, "0.1", {1});
  node["metadata"]["labels"]["kubernetes.io/hostname"] = "n1";
  node["metadata"]["annotations"]["node.alpha.kubernetes.io/ttl"] = "0";
  node["status"]["images"] = nlohmann::json::array({"a", "b"});
  ExpectSameView(node);
  nlohmann::json kept = *NodeKeptForm(node);
  EXPECT_FALSE(kept.contains("status"));
  EXPECT_FALSE(kept["metadata"]["labels"].contains("kubernetes.io/hostname"));
  EXPECT_FALSE(
      kept["metadata"]["annotations"].contains("node.alpha.kubernetes.io/ttl"));
}

TEST(NodeKeptFormTest, ProblemsSurviveToo) {
  ExpectSameView(testing::PlainNode("n2"));
  nlohmann::json bad = testing::SharingNode("n3", 1, 16);
  bad["metadata"]["annotations"]["enflame.com/gcu-devices"] = "[{";
  ExpectSameView(bad);
}

}  // namespace
}  // namespace gcushare::extender
