// --once mode: every pod pending for us at the start is scheduled once, in
// queue order, and then the program ends. Nodes and pods are listed afresh
// before each pod, so each attempt sees the bindings before it.
//
// Ownership: `client` and `scheduler` are borrowed.
// Failure: a failed list is returned (nothing more is tried); failed pods
// are counted, not errors.
#ifndef GCUSHARE_TESTS_PEERS_SCHEDULER_ONCE_SCHEDULER_H_
#define GCUSHARE_TESTS_PEERS_SCHEDULER_ONCE_SCHEDULER_H_

#include <set>
#include <string>

#include "kube/kube_client.h"
#include "status/status.h"
#include "tests/peers/scheduler/pod_scheduler.h"

namespace gcushare::scheduler {

struct OnceSummary {
  int pending = 0;  // Pods that were pending at the start.
  int bound = 0;

  bool all_bound() const { return bound == pending; }
};

// Lists nodes and pods into a Snapshot.
StatusOr<Snapshot> ListSnapshot(kube::KubeClient* client);

StatusOr<OnceSummary> ScheduleAllOnce(
    kube::KubeClient* client, PodScheduler* scheduler,
    const std::set<std::string>& scheduler_names);

}  // namespace gcushare::scheduler

#endif  // GCUSHARE_TESTS_PEERS_SCHEDULER_ONCE_SCHEDULER_H_
