#include "extender/cache_metrics.h"

#include <string>
#include <vector>

namespace gcushare::extender {

using placement::CachedNode;
using placement::CardUsage;

namespace {

using Labels = std::vector<std::pair<std::string, std::string>>;

struct Row {
  Labels labels;
  double used = 0;
  double total = 0;
};

}  // namespace

void RegisterCacheMetrics(const CardCache* cache, metrics::Registry* registry) {
  registry->AddCollector([cache](metrics::SampleWriter& w) {
    std::vector<Row> nodes;
    std::vector<Row> cards;
    cache->VisitAll([&](const std::string& name, const CachedNode& node) {
      Row row{{{"node", name}, {"unit", node.view.unit_text}}};
      for (const CardUsage& card : node.cards) {
        double used = card.whole ? card.total_units : card.used_units;
        row.used += used;
        row.total += card.total_units;
        cards.push_back({{{"node", name},
                          {"card", std::to_string(card.index)},
                          {"unit", node.view.unit_text}},
                         used,
                         static_cast<double>(card.total_units)});
      }
      nodes.push_back(std::move(row));
    });
    w.Family("gcushare_extender_cache_nodes",
             "GCUShare nodes in the extender's cache.", "gauge");
    w.Sample({}, static_cast<double>(nodes.size()));
    w.Family("gcushare_extender_cache_pods",
             "Pods holding GCU memory in the extender's cache.", "gauge");
    w.Sample({}, static_cast<double>(cache->pod_count()));
    w.Family("gcushare_node_memory_used_units",
             "GCU memory claimed on a node, in the node's unit.", "gauge");
    for (const Row& r : nodes) w.Sample(r.labels, r.used);
    w.Family("gcushare_node_memory_total_units",
             "GCU memory of a node's cards, in the node's unit.", "gauge");
    for (const Row& r : nodes) w.Sample(r.labels, r.total);
    w.Family("gcushare_card_memory_used_units",
             "GCU memory claimed on a card, in the node's unit.", "gauge");
    for (const Row& r : cards) w.Sample(r.labels, r.used);
    w.Family("gcushare_card_memory_total_units",
             "GCU memory of a card, in the node's unit.", "gauge");
    for (const Row& r : cards) w.Sample(r.labels, r.total);
  });
}

}  // namespace gcushare::extender
