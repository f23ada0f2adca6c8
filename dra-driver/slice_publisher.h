// Keeps this node's ResourceSlices in the API server in step with its GCU
// cards, as the upstream resourceslice controller does for Go drivers
// (staging/src/k8s.io/dynamic-resource-allocation/resourceslice).
//
// What it does:
//   - builds the desired slices (slice_builder.h) from the current
//     inventory and plans a sync (slice_plan.h) against the slices the
//     server holds for spec.nodeName=<node>,spec.driver=gcu.enflame.com:
//     deletes obsolete ones, PUTs changed ones (with their resourceVersion)
//     and creates missing ones, bumping pool.generation on every change of
//     content; a 409 Conflict (or a slice gone under a PUT) re-reads and
//     plans again;
//   - watches those slices (kube/informer.h: list + watch, relist on 410):
//     a DELETED slice, or a relist (the watch had a gap), is synced at once
//     (the kubelet deletes the node's slices when it starts and 30 s after
//     losing the plugin); any other change is repaired by the periodic resync,
//     every `sync_delay` on the injected clock (upstream DefaultSyncDelay, 30
//     s). A resync that finds the informer's copy in step makes no request;
//     otherwise it plans from a fresh List, so the informer's lag can never
//     cause a duplicate;
//   - SetInventory() (health changes from efml::HealthMonitor, a card
//     turning unhealthy or healthy) gives new desired slices, synced at once;
//   - after each create/update it compares the stored object with what it
//     sent (slice_diff.h). When kube-apiserver dropped the consumable
//     capacity fields (DRAConsumableCapacity off) it says so loudly once:
//     an error log, the gauge
//     gcushare_dra_consumable_capacity{state="dropped"} = 1 and a Warning
//     Event "ConsumableCapacityDisabled" on the Node; then it re-publishes
//     whole-card devices (no allowMultipleAllocations/requestPolicy) so the
//     pool is consistent. Dropped device taints (DRADeviceTaints off) give
//     the Event "DeviceTaintsDisabled" and unhealthy cards are then left out
//     of the slices instead. Both last until the driver restarts;
//   - a failed sync (API server down, validation error) is logged and
//     retried with exponential backoff (on the injected clock); the desired
//     state is kept, so nothing is lost.
//
// Threading: Start() spawns the worker thread and the informer's thread;
// Stop() cancels both and joins them (idempotent; the destructor calls it;
// no Start() after Stop()). SetInventory(), Poke() and the accessors may be
// called from any thread. SyncOnce() runs one sync on the caller's thread,
// serialised with the worker's (for tests and for a first synchronous
// publish before Start()).
//
// Ownership: `client`, options.clock and options.metrics are borrowed and
// must outlive the publisher.
#ifndef GCUSHARE_DRA_DRIVER_SLICE_PUBLISHER_H_
#define GCUSHARE_DRA_DRIVER_SLICE_PUBLISHER_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>

#include "base/backoff.h"
#include "base/cancellation.h"
#include "base/clock.h"
#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "dra-driver/slice_builder.h"
#include "dra-driver/slice_diff.h"
#include "dra-driver/slice_plan.h"
#include "efml/card.h"
#include "kube/informer.h"
#include "kube/kube_client.h"
#include "metrics/registry.h"
#include "status/status.h"

namespace gcushare::dra {

struct SlicePublisherOptions {
  // What to publish: node name and uid, driver version, card model, memory
  // unit, and whether consumable capacity and taints are wanted. An empty
  // node uid is read from the Node (GET nodes/<name>) by the first sync,
  // as the upstream controller does.
  SliceBuilderOptions slices;
  // Periodic resync, on `clock` (upstream DefaultSyncDelay).
  std::chrono::nanoseconds sync_delay = std::chrono::seconds(30);
  // How often (real time) the idle worker looks at `clock` to see whether
  // a resync is due; Poke() looks at once.
  std::chrono::milliseconds clock_check = std::chrono::seconds(1);
  // Retry of failed syncs, and the informer's re-list/re-watch.
  base::BackoffOptions backoff{std::chrono::milliseconds(500),
                               std::chrono::seconds(30), 2.0, 0.2};
  // Re-reads after a 409 Conflict within one sync before giving up (the
  // worker then backs off and tries again).
  int conflict_retries = 3;
  base::Clock* clock = nullptr;          // Null: the real clock.
  metrics::Registry* metrics = nullptr;  // Null: a private registry.
};

// Values of gcushare_dra_consumable_capacity's "state" label.
inline constexpr std::string_view kConsumablePublished = "published";
inline constexpr std::string_view kConsumableDropped = "dropped";
inline constexpr std::string_view kConsumableDisabled = "disabled";

// Event reasons on the Node.
inline constexpr std::string_view kReasonConsumableCapacityDisabled =
    "ConsumableCapacityDisabled";
inline constexpr std::string_view kReasonDeviceTaintsDisabled =
    "DeviceTaintsDisabled";

class SlicePublisher {
 public:
  SlicePublisher(kube::KubeClient* client, efml::Inventory inventory,
                 SlicePublisherOptions options);
  ~SlicePublisher();
  SlicePublisher(const SlicePublisher&) = delete;
  SlicePublisher& operator=(const SlicePublisher&) = delete;

  void Start();
  void Stop();

  // The cards as they are now (all of them, healthy or not); a change is
  // synced at once. Suits efml::HealthMonitor::Subscribe:
  //   monitor.Subscribe([&](const efml::Inventory& cards, const auto&) {
  //     publisher.SetInventory(cards); });
  void SetInventory(efml::Inventory inventory);

  // Makes the idle worker look at the clock now (after a FakeClock moved).
  void Poke();

  // One sync on the calling thread (see the file comment).
  Status SyncOnce();

  // The pool generation the last successful sync left, 0 before one.
  int64_t generation() const;
  // The gated fields the server dropped so far.
  DroppedFields dropped() const;
  // Syncs run (successful or not).
  uint64_t syncs() const { return syncs_.load(); }

 private:
  class WatchHandler;

  void Run();
  // Waits until there is work; false when stopping.
  bool WaitForWork();
  void MarkDirty();
  Status SyncLocked() REQUIRES(sync_mu_);
  // The Node's metadata.uid, remembered in effective_.
  StatusOr<std::string> ReadNodeUid();
  // Carries out `plan`; records what the server dropped in `dropped`.
  Status Execute(const SlicePlan& plan, DroppedFields* dropped);
  // Switches off what the server dropped; true when that changes the
  // desired slices.
  bool HandleDropped(const DroppedFields& dropped);
  void Warn(std::string_view reason, const std::string& message);
  void SetConsumableState(std::string_view state);

  kube::KubeClient* const client_;
  const SlicePublisherOptions options_;
  const std::string field_selector_;
  std::unique_ptr<base::Clock> owned_clock_;
  base::Clock* clock_;
  std::unique_ptr<metrics::Registry> owned_metrics_;
  metrics::Family<metrics::Gauge>* consumable_state_;
  metrics::Family<metrics::Counter>* writes_;
  metrics::Counter* sync_errors_;

  base::Mutex sync_mu_;  // Serialises syncs.

  mutable base::Mutex mu_;
  base::CondVar wake_;
  efml::Inventory inventory_ GUARDED_BY(mu_);
  SliceBuilderOptions effective_ GUARDED_BY(mu_);
  DroppedFields dropped_ GUARDED_BY(mu_);
  int64_t generation_ GUARDED_BY(mu_) = 0;
  bool dirty_ GUARDED_BY(mu_) = true;
  bool stopping_ GUARDED_BY(mu_) = false;
  std::chrono::steady_clock::time_point next_resync_ GUARDED_BY(mu_);

  std::atomic<uint64_t> syncs_{0};

  base::Mutex lifecycle_mu_;  // Serialises Start() and Stop().
  bool started_ GUARDED_BY(lifecycle_mu_) = false;
  base::Cancellation cancel_;
  std::unique_ptr<WatchHandler> handler_;
  std::unique_ptr<kube::Informer> informer_;
  // The started informer, for syncs on any thread; null before Start().
  std::atomic<kube::Informer*> informer_view_{nullptr};
  std::thread worker_;
};

}  // namespace gcushare::dra

#endif  // GCUSHARE_DRA_DRIVER_SLICE_PUBLISHER_H_
