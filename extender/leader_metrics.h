// The leader-election figures of /metrics: gcushare_extender_binder (1
// while this replica is the one that binds, else 0) and
// gcushare_extender_leadership_changes_total{event="started"|"stopped"}.
// Installs the elector's callbacks (call before its Run()). The elector
// and registry are borrowed and must outlive it; updates run on the
// election thread.
#ifndef GCUSHARE_EXTENDER_LEADER_METRICS_H_
#define GCUSHARE_EXTENDER_LEADER_METRICS_H_

#include "ha/leader_elector.h"
#include "metrics/registry.h"

namespace gcushare::extender {

void RegisterLeaderMetrics(ha::LeaderElector* elector,
                           metrics::Registry* registry);

}  // namespace gcushare::extender

#endif  // GCUSHARE_EXTENDER_LEADER_METRICS_H_
