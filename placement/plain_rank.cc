#include "placement/plain_rank.h"

#include <cstdlib>

namespace gcushare::placement {

namespace {

// The CPU of the node BestFit's rule measures against (128 cores).
constexpr double kReferenceCpuMilli = 128000;

}  // namespace

std::array<double, 3> PlainRank(const std::vector<CardUsage>* cards,
                                const HostFit& host, const RequestMix* mix) {
  double added = 0, free_share = 0;
  if (cards != nullptr) {
    uint64_t total = 0;
    for (const CardUsage& card : *cards) {
      if (card.healthy) total += card.total_units;
    }
    if (total > 0) {
      free_share = static_cast<double>(FreeCardUnits(*cards)) /
                   static_cast<double>(total);
    }
    if (mix != nullptr) {
      const double usable = UsableCardUnits(*cards, *mix);
      added = HostFragmentAdded(usable, usable, host, mix);
    }
  }
  const double cpu_left =
      static_cast<double>(host.node_free.cpu_milli - host.pod.cpu_milli);
  return {-added, -(cpu_left / kReferenceCpuMilli + free_share), 0};
}

}  // namespace gcushare::placement
