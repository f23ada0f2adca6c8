#include "extender/leader_metrics.h"

namespace gcushare::extender {

void RegisterLeaderMetrics(ha::LeaderElector* elector,
                           metrics::Registry* registry) {
  metrics::Gauge& binder =
      registry
          ->AddGauge("gcushare_extender_binder",
                     "1 while this replica holds the leader-election Lease "
                     "and makes the binding decisions, else 0.",
                     {})
          .Get();
  metrics::Family<metrics::Counter>& changes = registry->AddCounter(
      "gcushare_extender_leadership_changes_total",
      "Times this replica became the binder (started) or stopped being it "
      "(stopped: lost, not renewed in time, or resigned).",
      {"event"});
  binder.Set(0);
  changes.WithLabels({"started"});
  changes.WithLabels({"stopped"});
  elector->SetCallbacks(
      [&binder, &changes](uint64_t) {
        binder.Set(1);
        changes.WithLabels({"started"}).Increment();
      },
      [&binder, &changes] {
        binder.Set(0);
        changes.WithLabels({"stopped"}).Increment();
      });
}

}  // namespace gcushare::extender
