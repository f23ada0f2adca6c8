// PluginMetrics: the device plugin's Prometheus metrics.
//   gcushare_device_plugin_allocations_total{result}      ok | error
//   gcushare_device_plugin_allocate_failures_total{reason}
//       bad_request (kubelet's request), no_pod (no pending pod on this
//       node matches), api_server (the node's pods could not be listed),
//       assignment (the pod's cards do not fit this node's cards), other
//   gcushare_device_plugin_card_healthy{node,card}        1 | 0
//   gcushare_device_plugin_node_patches_total{result}     ok | error
// Every label value above exists from the start (at 0), so dashboards and
// alerts see the series before the first event.
//
// Ownership: the registry is borrowed and must outlive this object.
// Thread-safety: all methods are safe from any thread (metrics/ atomics).
// Failure: none; registering twice in one registry aborts (programming
// error).
#ifndef GCUSHARE_DEVICE_PLUGIN_PLUGIN_METRICS_H_
#define GCUSHARE_DEVICE_PLUGIN_PLUGIN_METRICS_H_

#include <string>
#include <string_view>

#include "efml/card.h"
#include "metrics/registry.h"
#include "status/status.h"

namespace gcushare::deviceplugin {

class PluginMetrics {
 public:
  PluginMetrics(metrics::Registry* registry, std::string node);

  // One container's Allocate, as answered to kubelet.
  void Allocated(const Status& result);
  // One attempt to patch the Node's status and annotations.
  void NodePatched(const Status& result);
  // The cards' health as last seen.
  void Cards(const efml::Inventory& inventory);

  // The failure reason label for an Allocate status (not OK).
  static std::string_view Reason(const Status& result);

 private:
  const std::string node_;
  metrics::Family<metrics::Counter>& allocations_;
  metrics::Family<metrics::Counter>& failures_;
  metrics::Family<metrics::Gauge>& healthy_;
  metrics::Family<metrics::Counter>& patches_;
};

}  // namespace gcushare::deviceplugin

#endif  // GCUSHARE_DEVICE_PLUGIN_PLUGIN_METRICS_H_
