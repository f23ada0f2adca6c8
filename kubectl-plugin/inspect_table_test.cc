#include "kubectl-plugin/inspect_table.h"

#include <gtest/gtest.h>

namespace gcushare::kubectl_plugin {
namespace {

TEST(InspectTableTest, AmountsInGib) {
  struct Case {
    uint64_t units;
    const char* unit;
    const char* text;
  };
  for (const Case& c :
       {Case{4, "1", "4 GiB"}, Case{0, "1", "0 GiB"}, Case{40, "0.1", "4 GiB"},
        Case{45, "0.1", "4.5 GiB"}, Case{1250, "0.01", "12.5 GiB"},
        Case{1, "0.001", "0.001 GiB"}, Case{16384, "0.001", "16.384 GiB"},
        Case{96000, "0.001", "96 GiB"}, Case{7, "", "7 units"},
        Case{7, "0.5", "7 units"}}) {
    EXPECT_EQ(FormatAmount(c.units, c.unit), c.text) << c.units << c.unit;
  }
}

NodeReport Node(std::string name, std::string unit,
                std::vector<CardReport> cards) {
  NodeReport node;
  node.name = std::move(name);
  node.memory_unit = std::move(unit);
  for (const CardReport& card : cards) {
    node.total += card.total;
    node.used += card.used;
  }
  node.cards = std::move(cards);
  return node;
}

CardReport Card(int index, uint64_t total, std::vector<PodOnCard> pods,
                bool healthy = true) {
  CardReport card;
  card.index = index;
  card.total = total;
  card.healthy = healthy;
  for (const PodOnCard& pod : pods) card.used += pod.used;
  card.pods = std::move(pods);
  return card;
}

TEST(InspectTableTest, Tables) {
  struct Case {
    const char* name;
    std::vector<NodeReport> nodes;
    bool show_pods;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"empty",
       {},
       true,
       "No GCUShare nodes known to the extender (nodes need the label "
       "enflame.com/gcushare=true and a running device plugin).\n"},
      {"one card, one pod",
       {Node("n1", "1", {Card(0, 16, {{"default", "a", 4, false}})})},
       true,
       "NODE  CARD  HEALTH  USED/TOTAL  FREE    PODS\n"
       "n1    0     ok      4/16 GiB    12 GiB  default/a: 4 GiB\n"},
      {"units 0.1, pods per row, assumed, all row, total",
       {Node("node-b", "0.1",
             {Card(0, 160,
                   {{"default", "infer-1", 40, false},
                    {"default", "infer-2", 5, true}}),
              Card(1, 160, {}, false)}),
        Node("a", "1", {Card(3, 16, {{"ml", "train", 16, false}})})},
       true,
       "NODE    CARD  HEALTH     USED/TOTAL   FREE      PODS\n"
       "node-b  0     ok         4.5/16 GiB   11.5 GiB  default/infer-1: 4 "
       "GiB\n"
       "                                                default/infer-2: 0.5 "
       "GiB "
       "(assumed)\n"
       "        1     UNHEALTHY  0/16 GiB     16 GiB\n"
       "        all              4.5/32 GiB   27.5 GiB\n"
       "a       3     ok         16/16 GiB    0 GiB     ml/train: 16 GiB\n"
       "TOTAL                    20.5/48 GiB  27.5 GiB\n"},
      {"pod counts only",
       {Node("n1", "1",
             {Card(0, 16, {{"x", "a", 2, false}, {"x", "b", 2, false}}),
              Card(1, 16, {{"x", "c", 2, false}})})},
       false,
       "NODE  CARD  HEALTH  USED/TOTAL  FREE    PODS\n"
       "n1    0     ok      4/16 GiB    12 GiB  2 pods\n"
       "      1     ok      2/16 GiB    14 GiB  1 pod\n"
       "      all           6/32 GiB    26 GiB\n"},
      {"problem node without unit or cards",
       {Node("good", "1", {Card(0, 8, {})}),
        [] {
          NodeReport n = Node("bad", "", {});
          n.problem = "annotation enflame.com/gcu-devices is not JSON";
          return n;
        }()},
       true,
       "NODE    CARD  HEALTH  USED/TOTAL  FREE   PODS\n"
       "good    0     ok      0/8 GiB     8 GiB\n"
       "bad     -                                no cards\n"
       "TOTAL*                0/8 GiB     8 GiB\n"
       "! bad: annotation enflame.com/gcu-devices is not JSON\n"
       "* nodes without a valid memory unit are not in the total\n"},
  };
  for (const Case& c : cases) {
    TableOptions options;
    options.show_pods = c.show_pods;
    EXPECT_EQ(FormatTable(c.nodes, options), c.want) << c.name;
  }
}

}  // namespace
}  // namespace gcushare::kubectl_plugin
