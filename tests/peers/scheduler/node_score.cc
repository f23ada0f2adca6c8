#include "tests/peers/scheduler/node_score.h"

#include <cmath>
#include <string>

namespace gcushare::scheduler {
namespace {

constexpr int64_t kMaxNodeScore = 100;
constexpr int64_t kDefaultMilliCpu = 100;                // 100m
constexpr int64_t kDefaultMemory = 200LL * 1024 * 1024;  // 200 MiB

// LeastAllocated for one resource (leastRequestedScore).
int64_t LeastRequested(int64_t requested, int64_t capacity) {
  if (capacity == 0 || requested > capacity) return 0;
  return (capacity - requested) * kMaxNodeScore / capacity;
}

}  // namespace

int64_t ParseQuantity(std::string_view text, bool milli) {
  static constexpr std::pair<std::string_view, double> kSuffixes[] = {
      {"Ki", 1024.0},       {"Mi", 1048576.0},
      {"Gi", 1073741824.0}, {"Ti", 1099511627776.0},
      {"k", 1e3},           {"M", 1e6},
      {"G", 1e9},           {"T", 1e12},
      {"m", 1e-3}};
  double factor = 1;
  for (const auto& [suffix, value] : kSuffixes) {
    if (text.size() > suffix.size() &&
        text.substr(text.size() - suffix.size()) == suffix) {
      factor = value;
      text.remove_suffix(suffix.size());
      break;
    }
  }
  try {
    size_t used = 0;
    double number = std::stod(std::string(text), &used);
    if (used != text.size() || number < 0) return 0;
    return static_cast<int64_t>(
        std::ceil(number * factor * (milli ? 1000 : 1) - 1e-9));
  } catch (const std::exception&) {
    return 0;
  }
}

HostResources NonZeroRequests(const nlohmann::json& pod) {
  HostResources sum;
  auto spec = pod.find("spec");
  if (spec == pod.end() || !spec->is_object()) return sum;
  auto containers = spec->find("containers");
  if (containers == spec->end() || !containers->is_array()) return sum;
  for (const nlohmann::json& container : *containers) {
    int64_t cpu = 0, memory = 0;
    const nlohmann::json* requests = nullptr;
    auto resources = container.find("resources");
    if (resources != container.end() && resources->is_object()) {
      auto found = resources->find("requests");
      if (found != resources->end() && found->is_object()) requests = &*found;
    }
    if (requests != nullptr) {
      if (auto c = requests->find("cpu");
          c != requests->end() && c->is_string()) {
        cpu = ParseQuantity(c->get<std::string>(), true);
      }
      if (auto m = requests->find("memory");
          m != requests->end() && m->is_string()) {
        memory = ParseQuantity(m->get<std::string>(), false);
      }
    }
    sum.cpu_milli += cpu > 0 ? cpu : kDefaultMilliCpu;
    sum.memory += memory > 0 ? memory : kDefaultMemory;
  }
  return sum;
}

int64_t DefaultPluginScore(const HostResources& pod,
                           const HostResources& requested,
                           const nlohmann::json& node) {
  HostResources allocatable;
  auto status = node.find("status");
  if (status != node.end() && status->is_object()) {
    auto found = status->find("allocatable");
    if (found != status->end() && found->is_object()) {
      if (auto c = found->find("cpu"); c != found->end() && c->is_string()) {
        allocatable.cpu_milli = ParseQuantity(c->get<std::string>(), true);
      }
      if (auto m = found->find("memory"); m != found->end() && m->is_string()) {
        allocatable.memory = ParseQuantity(m->get<std::string>(), false);
      }
    }
  }
  const int64_t cpu = requested.cpu_milli + pod.cpu_milli;
  const int64_t memory = requested.memory + pod.memory;
  // NodeResourcesFit, LeastAllocated, cpu and memory weight 1 each.
  const int64_t fit = (LeastRequested(cpu, allocatable.cpu_milli) +
                       LeastRequested(memory, allocatable.memory)) /
                      2;
  // NodeResourcesBalancedAllocation: (1 - std of the two fractions) * 100.
  auto fraction = [](int64_t used, int64_t capacity) {
    if (capacity == 0) return 1.0;
    return std::min(1.0, static_cast<double>(used) / capacity);
  };
  const double std_dev = std::abs(fraction(cpu, allocatable.cpu_milli) -
                                  fraction(memory, allocatable.memory)) /
                         2;
  const int64_t balanced =
      static_cast<int64_t>((1 - std_dev) * static_cast<double>(kMaxNodeScore));
  return fit * 1 + balanced * 1;
}

}  // namespace gcushare::scheduler
