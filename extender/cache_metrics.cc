#include "extender/cache_metrics.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace gcushare::extender {

using placement::CachedNode;
using placement::CardUsage;

namespace {

// What one scrape reads of the cache, compact: at 5,000 nodes x 8 cards it
// is about 1.5 MB, where rows of label strings were 12 MB.
struct NodeFigures {
  std::string name;
  std::string unit;
  double used = 0;
  double total = 0;
};

struct CardFigures {
  uint32_t node = 0;  // Index into the NodeFigures.
  uint32_t index = 0;
  double used = 0;
  double total = 0;
};

// One labels vector, its strings' buffers reused from sample to sample.
class LabelSet {
 public:
  explicit LabelSet(std::vector<std::string> names) {
    for (std::string& name : names) labels_.emplace_back(std::move(name), "");
  }
  LabelSet& Set(size_t i, const std::string& value) {
    labels_[i].second.assign(value);
    return *this;
  }
  const std::vector<std::pair<std::string, std::string>>& labels() const {
    return labels_;
  }

 private:
  std::vector<std::pair<std::string, std::string>> labels_;
};

}  // namespace

void RegisterCacheMetrics(const CardCache* cache, metrics::Registry* registry) {
  registry->AddCollector([cache](metrics::SampleWriter& w) {
    std::vector<NodeFigures> nodes;
    std::vector<CardFigures> cards;
    cache->VisitAll([&](const std::string& name, const CachedNode& node) {
      NodeFigures figures{name, node.view.unit_text};
      const auto at = static_cast<uint32_t>(nodes.size());
      for (const CardUsage& card : node.cards) {
        const double used = card.whole ? card.total_units : card.used_units;
        const auto total = static_cast<double>(card.total_units);
        figures.used += used;
        figures.total += total;
        cards.push_back({at, card.index, used, total});
      }
      nodes.push_back(std::move(figures));
    });
    // The exposition's size: a line is the family's name (33 bytes at
    // most), the label names and punctuation (30), the values and a number
    // (up to 24).
    size_t bytes = 0;
    for (const NodeFigures& n : nodes) {
      bytes += 2 * (n.name.size() + n.unit.size() + 87);
    }
    for (const CardFigures& c : cards) {
      const NodeFigures& n = nodes[c.node];
      bytes += 2 * (n.name.size() + n.unit.size() + 87 + 10);
    }
    w.Reserve(bytes + 1024);
    w.Family("gcushare_extender_cache_nodes",
             "GCUShare nodes in the extender's cache.", "gauge");
    w.Sample({}, static_cast<double>(nodes.size()));
    w.Family("gcushare_extender_cache_pods",
             "Pods holding GCU memory in the extender's cache.", "gauge");
    w.Sample({}, static_cast<double>(cache->pod_count()));

    LabelSet node_labels({"node", "unit"});
    const auto node_sample = [&](const NodeFigures& n, double value) {
      w.Sample(node_labels.Set(0, n.name).Set(1, n.unit).labels(), value);
    };
    w.Family("gcushare_node_memory_used_units",
             "GCU memory claimed on a node, in the node's unit.", "gauge");
    for (const NodeFigures& n : nodes) node_sample(n, n.used);
    w.Family("gcushare_node_memory_total_units",
             "GCU memory of a node's cards, in the node's unit.", "gauge");
    for (const NodeFigures& n : nodes) node_sample(n, n.total);

    LabelSet card_labels({"node", "card", "unit"});
    const auto card_sample = [&](const CardFigures& c, double value) {
      const NodeFigures& n = nodes[c.node];
      w.Sample(card_labels.Set(0, n.name)
                   .Set(1, std::to_string(c.index))
                   .Set(2, n.unit)
                   .labels(),
               value);
    };
    w.Family("gcushare_card_memory_used_units",
             "GCU memory claimed on a card, in the node's unit.", "gauge");
    for (const CardFigures& c : cards) card_sample(c, c.used);
    w.Family("gcushare_card_memory_total_units",
             "GCU memory of a card, in the node's unit.", "gauge");
    for (const CardFigures& c : cards) card_sample(c, c.total);
  });
}

}  // namespace gcushare::extender
