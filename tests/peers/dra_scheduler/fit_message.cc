#include "tests/peers/dra_scheduler/fit_message.h"

#include <algorithm>
#include <vector>

namespace gcushare::dra_scheduler {
namespace {

std::string Available(int num_nodes) {
  return "0/" + std::to_string(num_nodes) + " nodes are available:";
}

std::string Preemption(int num_nodes) {
  return "preemption: " + Available(num_nodes) + " " +
         std::to_string(num_nodes) +
         " Preemption is not helpful for scheduling.";
}

}  // namespace

std::string FilterFailureMessage(int num_nodes,
                                 const std::map<std::string, int>& reasons) {
  std::vector<std::string> items;
  items.reserve(reasons.size());
  for (const auto& [reason, count] : reasons) {
    items.push_back(std::to_string(count) + " " + reason);
  }
  std::sort(items.begin(), items.end());
  std::string histogram;
  for (const std::string& item : items) {
    if (!histogram.empty()) histogram += ", ";
    histogram += item;
  }
  std::string out = Available(num_nodes);
  if (!histogram.empty()) out += " " + histogram + ".";
  return out + " still not schedulable, " + Preemption(num_nodes);
}

std::string PreFilterFailureMessage(int num_nodes, const std::string& message) {
  return Available(num_nodes) + " " + message +
         ". no new claims to deallocate, " + Preemption(num_nodes);
}

}  // namespace gcushare::dra_scheduler
