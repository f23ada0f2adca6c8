#include "extender/cache_metrics.h"

#include <gtest/gtest.h>

#include <string>

#include "extender/testing/objects.h"

namespace gcushare::extender {
namespace {

using testing::Assigned;
using testing::MemoryPod;
using testing::Pod;
using testing::SharingNode;

TEST(CacheMetricsTest, NodesAndCardsWithTheirNodesLabels) {
  CardCache cache;
  cache.UpsertNode(SharingNode("n2", 1, 80, "0.1"));
  cache.UpsertNode(SharingNode("n1", 2, 16));
  ASSERT_TRUE(cache.UpsertPod(Assigned(MemoryPod("a", 4), "n1", {1}, 16)).ok());
  // A whole card counts all its memory.
  ASSERT_TRUE(cache
                  .UpsertPod(Assigned(Pod("default", "b", "", {{"main", 0, 1}}),
                                      "n2", {0}, 80))
                  .ok());
  metrics::Registry registry;
  RegisterCacheMetrics(&cache, &registry);
  EXPECT_EQ(
      registry.Render(),
      "# HELP gcushare_extender_cache_nodes GCUShare nodes in the extender's "
      "cache.\n"
      "# TYPE gcushare_extender_cache_nodes gauge\n"
      "gcushare_extender_cache_nodes 2\n"
      "# HELP gcushare_extender_cache_pods Pods holding GCU memory in the "
      "extender's cache.\n"
      "# TYPE gcushare_extender_cache_pods gauge\n"
      "gcushare_extender_cache_pods 2\n"
      "# HELP gcushare_node_memory_used_units GCU memory claimed on a node, in "
      "the node's unit.\n"
      "# TYPE gcushare_node_memory_used_units gauge\n"
      "gcushare_node_memory_used_units{node=\"n1\",unit=\"1\"} 4\n"
      "gcushare_node_memory_used_units{node=\"n2\",unit=\"0.1\"} 80\n"
      "# HELP gcushare_node_memory_total_units GCU memory of a node's cards, "
      "in the node's unit.\n"
      "# TYPE gcushare_node_memory_total_units gauge\n"
      "gcushare_node_memory_total_units{node=\"n1\",unit=\"1\"} 32\n"
      "gcushare_node_memory_total_units{node=\"n2\",unit=\"0.1\"} 80\n"
      "# HELP gcushare_card_memory_used_units GCU memory claimed on a card, in "
      "the node's unit.\n"
      "# TYPE gcushare_card_memory_used_units gauge\n"
      "gcushare_card_memory_used_units{node=\"n1\",card=\"0\",unit=\"1\"} 0\n"
      "gcushare_card_memory_used_units{node=\"n1\",card=\"1\",unit=\"1\"} 4\n"
      "gcushare_card_memory_used_units{node=\"n2\",card=\"0\",unit=\"0.1\"} "
      "80\n"
      "# HELP gcushare_card_memory_total_units GCU memory of a card, in the "
      "node's unit.\n"
      "# TYPE gcushare_card_memory_total_units gauge\n"
      "gcushare_card_memory_total_units{node=\"n1\",card=\"0\",unit=\"1\"} "
      "16\n"
      "gcushare_card_memory_total_units{node=\"n1\",card=\"1\",unit=\"1\"} "
      "16\n"
      "gcushare_card_memory_total_units{node=\"n2\",card=\"0\",unit=\"0.1\"} "
      "80\n");
}

}  // namespace
}  // namespace gcushare::extender
