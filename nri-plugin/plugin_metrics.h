// NriMetrics: the NRI plugin's Prometheus metrics.
//   gcushare_nri_create_container_duration_seconds   histogram: time to
//       answer the runtime's CreateContainer (containerd's deadline is 2 s)
//   gcushare_nri_adjustments_total     containers given their cards
//   gcushare_nri_containers_refused_total{reason}    creations failed:
//       not_found (a card's device node, or the pod, is missing),
//       invalid (malformed assignment annotations), precondition (the
//       device path is not a device node, or the pod is not what the
//       annotations say), other
//   gcushare_nri_reconnects_total      runtime connections that ended or
//       could not be made, and were tried again
// Every label value above exists from the start (at 0).
//
// Ownership: the registry is borrowed and must outlive this object.
// Thread-safety: all methods are safe from any thread (metrics/ atomics).
// Failure: none; registering twice in one registry aborts (programming
// error).
#ifndef GCUSHARE_NRI_PLUGIN_PLUGIN_METRICS_H_
#define GCUSHARE_NRI_PLUGIN_PLUGIN_METRICS_H_

#include <string_view>

#include "metrics/registry.h"
#include "status/status.h"

namespace gcushare::nri {

class NriMetrics {
 public:
  explicit NriMetrics(metrics::Registry* registry);

  // One CreateContainer answered with `result` after `seconds`;
  // `adjusted`: the answer gives the container its cards.
  void Created(const Status& result, bool adjusted, double seconds);
  // A connection to the runtime ended (or failed); the plugin tries again.
  void Reconnecting();

  // The refusal reason label for a CreateContainer status (not OK).
  static std::string_view Reason(const Status& result);

 private:
  metrics::Histogram& latency_;
  metrics::Counter& adjustments_;
  metrics::Family<metrics::Counter>& refused_;
  metrics::Counter& reconnects_;
};

}  // namespace gcushare::nri

#endif  // GCUSHARE_NRI_PLUGIN_PLUGIN_METRICS_H_
