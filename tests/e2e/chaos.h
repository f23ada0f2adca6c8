// The chaos run of issue 15: one node of 8 cards x 16 GiB, many sharing pods
// of mixed sizes created at once, and while they are scheduled, chosen
// pieces SIGKILLed and relaunched at random points and the stand-in API
// server killed once in the middle of a Binding (its --crash-on-binding
// knob, before or after the commit). Then, once everything settled (every
// pod Running, refused by the kubelet while the device plugin was down, or
// Unschedulable with kube-scheduler's reason; the extender's cache synced),
// it checks from the API server's pods alone: no card's summed requests
// exceed its memory, every created container got exactly its own pod's
// card and was created once, every pod's Binding was committed at most once
// (the journal) and a second Binding is a 409, and /inspect equals the usage
// recomputed from the pods, per card.
//
// Pods ask for 1 to 4 GiB. "Random points" are bind counts drawn by a
// seeded RNG (std::mt19937_64), observed through the API server, never
// timed; the seed is in the report and in every error so that a failure can
// be replayed. The kill points (and the crash's Binding number) are drawn
// below the number of pods that must bind whatever the packing (26 of 8
// cards x 16 GiB), so that every kill happens while pods are being bound.
//
// Thread-safety: RunChaos drives its own cluster from the calling thread.
// Failure: an error naming the broken invariant (or the stalled step) and
// the seed and the work directory, which is removed unless GCUSHARE_E2E_KEEP
// is set (then it keeps every log for the replay).
#ifndef GCUSHARE_TESTS_E2E_CHAOS_H_
#define GCUSHARE_TESTS_E2E_CHAOS_H_

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "status/status.h"
#include "tests/e2e/local_cluster.h"

namespace gcushare::e2e {

struct ChaosOptions {
  int pods = 48;
  uint64_t seed = 1;
  // Pieces SIGKILLed and relaunched mid-flow, each kills_per_piece times.
  std::vector<Piece> victims = {Piece::kExtender};
  int kills_per_piece = 3;
  // Kill the API server once in the middle of a Binding.
  bool crash_apiserver = true;
  // How long the whole run may take before it is reported as stalled.
  std::chrono::seconds timeout{300};
  std::string runfiles_root;  // ClusterOptions::runfiles_root.
};

struct ChaosReport {
  uint64_t seed = 0;
  int pods = 0;
  int bound = 0;
  int running = 0;
  int unschedulable = 0;
  int admission_refused = 0;  // Bound while the device plugin was down.
  // Allocated by the kubelet, but the device plugin was SIGKILLed before
  // its gcu-device-assigned mark reached the pod, and the stand-in runtime
  // starts only marked pods: they stay Pending (see docs/operations.md).
  int marks_lost = 0;
  int kills = 0;  // SIGKILLs of victims.
  int apiserver_crashes = 0;
  std::string crash;  // The API server's crash-on-binding line.
  // Scheduling attempts that failed on a piece being down and Bindings
  // that failed at the API server: each is retried by kube-scheduler.
  int retries = 0;
  // Binds the extender answered success because the pod was already bound
  // with its cards (a retry after a lost answer).
  int bind_retries_answered = 0;
  int second_bindings_refused = 0;  // 409s for a second Binding.
  int over_commits = 0;
  int64_t used_units = 0;
  int64_t total_units = 0;

  // One line: "chaos seed=... pods=... bound=... kills=... over-commits=0".
  std::string Summary() const;
};

StatusOr<ChaosReport> RunChaos(const ChaosOptions& options);

// GCUSHARE_CHAOS_SEED when set, otherwise a fresh random seed.
uint64_t ChaosSeedFromEnvironment();

}  // namespace gcushare::e2e

#endif  // GCUSHARE_TESTS_E2E_CHAOS_H_
