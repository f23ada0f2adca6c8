#include "nri-plugin/plugin_metrics.h"

#include <string>

namespace gcushare::nri {

NriMetrics::NriMetrics(metrics::Registry* registry)
    : latency_(
          registry
              ->AddHistogram("gcushare_nri_create_container_duration_seconds",
                             "Time to answer the runtime's CreateContainer.",
                             {}, metrics::ExponentialBuckets(0.0001, 2, 16))
              .Get()),
      adjustments_(registry
                       ->AddCounter("gcushare_nri_adjustments_total",
                                    "Containers given their GCU cards.")
                       .Get()),
      refused_(registry->AddCounter(
          "gcushare_nri_containers_refused_total",
          "Container creations failed, by reason (not_found, invalid, "
          "precondition, other).",
          {"reason"})),
      reconnects_(registry
                      ->AddCounter("gcushare_nri_reconnects_total",
                                   "Runtime connections that ended or could "
                                   "not be made, and were tried again.")
                      .Get()) {
  for (const char* reason : {"not_found", "invalid", "precondition", "other"}) {
    refused_.WithLabels({reason});
  }
}

std::string_view NriMetrics::Reason(const Status& result) {
  switch (result.code()) {
    case StatusCode::kNotFound:
      return "not_found";
    case StatusCode::kInvalidArgument:
      return "invalid";
    case StatusCode::kFailedPrecondition:
      return "precondition";
    default:
      return "other";
  }
}

void NriMetrics::Created(const Status& result, bool adjusted, double seconds) {
  latency_.Observe(seconds);
  if (!result.ok()) {
    refused_.WithLabels({std::string(Reason(result))}).Increment();
  } else if (adjusted) {
    adjustments_.Increment();
  }
}

void NriMetrics::Reconnecting() { reconnects_.Increment(); }

}  // namespace gcushare::nri
