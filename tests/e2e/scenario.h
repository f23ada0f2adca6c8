// The vendor manual's scenario, played on a LocalCluster by the demo and
// the end-to-end tests: on a node of 8 cards of 16 GiB, pods asking for 4,
// 8, 12 and 20 GiB are created one after the other. The manual's outcome:
// 4 and 8 share card 0, 12 goes to another card, 20 stays Pending with
// "insufficient GCU Memory in one gcu device".
//
// Thread-safety: drives the cluster from the calling thread.
#ifndef GCUSHARE_TESTS_E2E_SCENARIO_H_
#define GCUSHARE_TESTS_E2E_SCENARIO_H_

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "status/status.h"
#include "tests/e2e/local_cluster.h"

namespace gcushare::e2e {

// Where a pod ended up and what its container got.
struct PodOutcome {
  std::string name;                        // In namespace "default".
  int64_t request_units = 0;               // enflame.com/gcu-memory.
  std::string node;                        // Empty while Pending.
  std::string card;                        // The gcu-device-id annotation.
  std::vector<std::string> devices;        // "/dev/gcu0 c 1:3" per device node.
  std::map<std::string, std::string> env;  // ENFLAME_* and GCUSHARE_*.
  std::string pending_reason;  // Why it is Pending (the scheduler's words).
};

// Creates pod `name` asking for `units` and waits until its container was
// created (scheduled, allocated, adjusted) or, when `expect_pending`, until
// the scheduler reported it unschedulable.
StatusOr<PodOutcome> RunSharedPod(
    LocalCluster& cluster, const std::string& name, int64_t units,
    bool expect_pending = false,
    std::chrono::milliseconds timeout = std::chrono::seconds(60));

// The whole scenario; its four outcomes in order.
StatusOr<std::vector<PodOutcome>> PlayVendorScenario(LocalCluster& cluster);

// The devices and GCUShare env vars of a created container's spec.
void ReadContainerSpec(const nlohmann::json& spec, PodOutcome* outcome);

}  // namespace gcushare::e2e

#endif  // GCUSHARE_TESTS_E2E_SCENARIO_H_
