// Invariants the end-to-end tests check on a LocalCluster after any
// sequence of events: no card over-committed, whole cards never shared, and
// every container got exactly the card(s) its own pod's annotations name.
//
// Thread-safety: reads the cluster from the calling thread.
#ifndef GCUSHARE_TESTS_E2E_CHECKS_H_
#define GCUSHARE_TESTS_E2E_CHECKS_H_

#include <cstdint>
#include <map>
#include <string>

#include "status/status.h"
#include "tests/e2e/local_cluster.h"

namespace gcushare::e2e {

struct Placement {
  std::map<int, int64_t> used_units;  // Card index -> shared units in use.
  std::map<int, std::string> whole;   // Card index -> whole-card pod.
  int pods = 0;                       // Bound pods with an assignment.
};

// Reads every bound pod of namespace `ns`; an error naming the first broken
// invariant: a card holding more than `card_units`, a whole card shared, a
// created container whose /dev/gcu* devices or ENFLAME_VISIBLE_DEVICES
// differ from its pod's annotations.
StatusOr<Placement> CheckPlacement(LocalCluster& cluster, int64_t card_units,
                                   const std::string& ns = "default");

// Every real daemon wrote its log file in the cluster's log directory.
Status CheckLogFiles(const LocalCluster& cluster);

}  // namespace gcushare::e2e

#endif  // GCUSHARE_TESTS_E2E_CHECKS_H_
