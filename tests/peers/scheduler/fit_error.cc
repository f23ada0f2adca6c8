#include "tests/peers/scheduler/fit_error.h"

#include <algorithm>
#include <vector>

namespace gcushare::scheduler {
namespace {

constexpr char kNotHelpful[] = "Preemption is not helpful for scheduling";
constexpr char kNoVictims[] = "No preemption victims found for incoming pod";
constexpr char kNeverPreempts[] = "not eligible due to preemptionPolicy=Never.";
constexpr char kNoClaims[] = "no new claims to deallocate";

std::string Histogram(const std::map<std::string, int>& counts) {
  std::vector<std::string> items;
  items.reserve(counts.size());
  for (const auto& [reason, count] : counts) {
    items.push_back(std::to_string(count) + " " + reason);
  }
  std::sort(items.begin(), items.end());
  std::string out;
  for (const std::string& item : items) {
    if (!out.empty()) out += ", ";
    out += item;
  }
  return out;
}

std::string FitErrorWith(int num_all_nodes,
                         const std::map<std::string, int>& counts) {
  std::string out =
      "0/" + std::to_string(num_all_nodes) + " nodes are available:";
  const std::string histogram = Histogram(counts);
  if (!histogram.empty()) out += " " + histogram + ".";
  return out;
}

bool NeverPreempts(const nlohmann::json& pod) {
  auto spec = pod.find("spec");
  if (spec == pod.end() || !spec->is_object()) return false;
  auto policy = spec->find("preemptionPolicy");
  return policy != spec->end() && *policy == "Never";
}

// DefaultPreemption's message (without the "preemption: " prefix).
std::string PreemptionMessage(const nlohmann::json& pod,
                              const Diagnosis& diagnosis, MessageStyle style) {
  if (NeverPreempts(pod)) return kNeverPreempts;
  int potential = 0;
  int unresolvable = 0;
  for (const auto& [node, status] : diagnosis.statuses) {
    if (status.code == FilterCode::kUnschedulable) {
      ++potential;
    } else {
      ++unresolvable;
    }
  }
  std::map<std::string, int> counts;
  int nodes = 0;
  if (style == MessageStyle::kV126) {
    // 1.26: the preemption FitError counts the nodes with a status.
    nodes = potential + unresolvable;
    if (potential > 0) counts[kNoVictims] = potential;
    if (unresolvable > 0) counts[kNotHelpful] = unresolvable;
  } else {
    // Later: every node; those not tried count as "not helpful".
    nodes = diagnosis.num_all_nodes;
    if (potential > 0) counts[kNoVictims] = potential;
    if (nodes - potential > 0) counts[kNotHelpful] = nodes - potential;
  }
  return FitErrorWith(nodes, counts);
}

}  // namespace

std::string FitErrorText(const Diagnosis& diagnosis) {
  std::map<std::string, int> counts;
  for (const auto& [node, status] : diagnosis.statuses) {
    for (const std::string& reason : status.reasons) ++counts[reason];
  }
  return FitErrorWith(diagnosis.num_all_nodes, counts);
}

std::string UnschedulableMessage(const nlohmann::json& pod,
                                 const Diagnosis& diagnosis,
                                 MessageStyle style) {
  std::string post_filter =
      "preemption: " + PreemptionMessage(pod, diagnosis, style);
  if (style == MessageStyle::kV126) {
    // SeparatorFormat " %v." after a message that already ends in ".".
    return FitErrorText(diagnosis) + " " + post_filter + ".";
  }
  // DynamicResources runs before DefaultPreemption; the PostFilter reasons
  // are joined with ", ".
  return FitErrorText(diagnosis) + " " + kNoClaims + ", " + post_filter;
}

}  // namespace gcushare::scheduler
