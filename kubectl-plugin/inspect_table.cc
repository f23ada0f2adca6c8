#include "kubectl-plugin/inspect_table.h"

#include <algorithm>
#include <array>
#include <optional>

#include "contract/memory_unit.h"

namespace gcushare::kubectl_plugin {
namespace {

constexpr size_t kColumns = 6;
using Row = std::array<std::string, kColumns>;

// Thousandths of a GiB per unit, or nullopt for an unknown unit.
std::optional<uint64_t> Thousandths(std::string_view memory_unit) {
  auto unit = contract::MemoryUnit::Parse(memory_unit);
  if (!unit.ok()) return std::nullopt;
  const std::string text = unit->ToString();  // "1", "0.1", "0.01", "0.001"
  uint64_t thousandths = 1000;
  if (size_t dot = text.find('.'); dot != std::string::npos) {
    for (size_t i = dot + 1; i < text.size(); ++i) thousandths /= 10;
  }
  return thousandths;
}

// "12", "12.5", "0.001" from thousandths of a GiB.
std::string Gib(uint64_t thousandths) {
  std::string out = std::to_string(thousandths / 1000);
  uint64_t fraction = thousandths % 1000;
  if (fraction != 0) {
    std::string digits = std::to_string(1000 + fraction).substr(1);
    while (digits.back() == '0') digits.pop_back();
    out += "." + digits;
  }
  return out;
}

std::string UsedOfTotal(uint64_t used, uint64_t total,
                        std::optional<uint64_t> per_unit) {
  if (!per_unit) {
    return std::to_string(used) + "/" + std::to_string(total) + " units";
  }
  return Gib(used * *per_unit) + "/" + Gib(total * *per_unit) + " GiB";
}

std::string Free(uint64_t used, uint64_t total,
                 std::optional<uint64_t> per_unit) {
  const uint64_t free = used >= total ? 0 : total - used;
  return per_unit ? Gib(free * *per_unit) + " GiB"
                  : std::to_string(free) + " units";
}

std::string PodCount(size_t n) {
  return n == 0 ? "" : std::to_string(n) + (n == 1 ? " pod" : " pods");
}

std::string Render(const std::vector<Row>& rows) {
  std::array<size_t, kColumns> width{};
  for (const Row& row : rows) {
    for (size_t c = 0; c < kColumns; ++c) {
      width[c] = std::max(width[c], row[c].size());
    }
  }
  std::string out;
  for (const Row& row : rows) {
    std::string line;
    for (size_t c = 0; c < kColumns; ++c) {
      line += row[c];
      if (c + 1 < kColumns)
        line += std::string(width[c] - row[c].size() + 2, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

}  // namespace

std::string FormatAmount(uint64_t units, std::string_view memory_unit) {
  auto per_unit = Thousandths(memory_unit);
  if (!per_unit) return std::to_string(units) + " units";
  return Gib(units * *per_unit) + " GiB";
}

std::string FormatTable(const std::vector<NodeReport>& nodes,
                        const TableOptions& options) {
  if (nodes.empty()) {
    return "No GCUShare nodes known to the extender (nodes need the label "
           "enflame.com/gcushare=true and a running device plugin).\n";
  }
  std::vector<Row> rows;
  rows.push_back({"NODE", "CARD", "HEALTH", "USED/TOTAL", "FREE", "PODS"});
  uint64_t all_used = 0, all_total = 0;  // Thousandths of a GiB.
  size_t summed = 0;
  std::string notes;
  for (const NodeReport& node : nodes) {
    const auto per_unit = Thousandths(node.memory_unit);
    if (per_unit) {
      all_used += node.used * *per_unit;
      all_total += node.total * *per_unit;
      ++summed;
    }
    if (!node.problem.empty()) {
      notes += "! " + node.name + ": " + node.problem + "\n";
    }
    if (node.cards.empty()) {
      rows.push_back({node.name, "-", "", "", "", "no cards"});
      continue;
    }
    bool first_row = true;
    for (const CardReport& card : node.cards) {
      Row row{first_row ? node.name : "",
              std::to_string(card.index),
              card.healthy ? "ok" : "UNHEALTHY",
              UsedOfTotal(card.used, card.total, per_unit),
              Free(card.used, card.total, per_unit),
              ""};
      first_row = false;
      if (!options.show_pods || card.pods.empty()) {
        row[5] = PodCount(card.pods.size());
        rows.push_back(row);
        continue;
      }
      for (const PodOnCard& pod : card.pods) {
        row[5] = pod.ns + "/" + pod.name + ": " +
                 FormatAmount(pod.used, node.memory_unit) +
                 (pod.assumed ? " (assumed)" : "");
        rows.push_back(row);
        row = Row{};
      }
    }
    if (node.cards.size() > 1) {
      rows.push_back({"", "all", "",
                      UsedOfTotal(node.used, node.total, per_unit),
                      Free(node.used, node.total, per_unit), ""});
    }
  }
  if (nodes.size() > 1 && summed > 0) {
    rows.push_back({summed == nodes.size() ? "TOTAL" : "TOTAL*", "", "",
                    Gib(all_used) + "/" + Gib(all_total) + " GiB",
                    Gib(all_total - std::min(all_used, all_total)) + " GiB",
                    ""});
    if (summed != nodes.size()) {
      notes += "* nodes without a valid memory unit are not in the total\n";
    }
  }
  return Render(rows) + notes;
}

}  // namespace gcushare::kubectl_plugin
