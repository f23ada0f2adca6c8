#include "extender/plain_rank.h"

namespace gcushare::extender {

std::array<double, 3> PlainRank(const std::vector<CardUsage>* cards,
                                const HostFit& host, const RequestMix* mix) {
  const bool free_cards = cards != nullptr && FreeCardUnits(*cards) > 0;
  const double cpu_left =
      static_cast<double>(host.node_free.cpu_milli - host.pod.cpu_milli);
  double added = 0;
  if (cards != nullptr && mix != nullptr) {
    const double usable = UsableCardUnits(*cards, *mix);
    added = HostFragmentAdded(usable, usable, host, mix);
  }
  return {-added, free_cards ? 0.0 : 1.0, -cpu_left};
}

}  // namespace gcushare::extender
