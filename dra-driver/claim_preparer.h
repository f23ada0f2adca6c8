// ClaimPreparer: the node side of NodePrepareResources and
// NodeUnprepareResources (kubelet DRA gRPC, mapped to protos by the
// service layer), without gRPC.
//
// Prepare, per claim (the kubelet sends {namespace, uid, name}):
//   1. already PrepareCompleted in the checkpoint: the same answer; nothing
//      is rewritten unless the claim's CDI spec file is missing (the node
//      rebooted and /var/run/cdi is a tmpfs), then it is rewritten from the
//      record, never from the API server;
//   2. otherwise GET the ResourceClaim, parse it (allocated_claim.h: uid,
//      allocation, this node's pool), build its CDI spec (claim_cdi.h),
//      admit its results into the ShareLedger (share_ledger.h; refuses an
//      over-commit), write the CDI spec, record the claim (PrepareCompleted)
//      in the checkpoint, answer one PreparedDevice per result. One
//      checkpoint write per claim: a crash between the spec and the record
//      leaves only a spec, which the kubelet's next Prepare rewrites (it
//      had no answer) and Unprepare removes.
//   A claim with no result of our driver gets an empty answer and no
//   record. Any failure is an error for that claim only, and ledger,
//   checkpoint and CDI dir are as before (a PrepareStarted record, which
//   earlier versions wrote before the spec, is redone from the API server
//   on the next Prepare).
// Unprepare, per claim, from the checkpoint only: remove the CDI spec file,
// drop the record (saved), release the claim's cards. A claim without a
// record is a success (its spec file, if one is left over, e.g. after a
// corrupt checkpoint, is removed too); twice is a success.
//
// Restore() must run first (Prepare/Unprepare answer an error for every
// claim until it succeeded). It reads the boot id and the checkpoint
// (checkpoint.h) and re-admits every record into the ledger (a record that
// no longer fits, e.g. a card gone, is kept so that Unprepare works, and
// reported). A boot id other than the checkpoint's means a reboot: records
// are kept, their specs are rewritten on their next Prepare. A CORRUPT
// checkpoint is moved aside (kept, reported) and the driver starts with no
// claims rather than refusing to start: refusing would crash-loop the
// DaemonSet and block every pod of the node on a file nobody can repair
// automatically (NVIDIA dra driver #1100/#1259), while the scheduler's
// accounting still prevents over-commit and pods that come back are
// re-prepared from their claims.
//
// Metrics (optional registry): gcushare_dra_driver_prepares_total{result},
// gcushare_dra_driver_unprepares_total{result} (result ok|error),
// gcushare_dra_driver_prepare_seconds (per claim),
// gcushare_dra_driver_prepared_claims and
// gcushare_dra_driver_card_held_bytes{card} (memory held by claims).
//
// Thread-safety: all methods may be called concurrently; calls for the same
// claim are serialised; the ledger, the checkpoint and the CDI dir change
// under one lock, so concurrent Prepares never over-commit a card. The
// KubeClient GET runs outside that lock. Never throws.
#ifndef GCUSHARE_DRA_DRIVER_CLAIM_PREPARER_H_
#define GCUSHARE_DRA_DRIVER_CLAIM_PREPARER_H_

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "contract/memory_unit.h"
#include "dra-driver/checkpoint.h"
#include "dra-driver/claim_handler.h"
#include "dra-driver/share_ledger.h"
#include "efml/card.h"
#include "kube/kube_client.h"
#include "metrics/registry.h"
#include "status/status.h"

namespace gcushare::dra {

struct ClaimPreparerOptions {
  std::string node_name;  // = the pool name.
  std::string cdi_dir = "/var/run/cdi";
  std::string checkpoint_path;  // <plugin dir>/checkpoint.json
  std::string boot_id_path = "/proc/sys/kernel/random/boot_id";
  contract::MemoryUnit memory_unit;
  efml::Inventory inventory;
  kube::KubeClient* kube = nullptr;      // Not owned; required.
  base::Clock* clock = nullptr;          // Not owned; required.
  metrics::Registry* metrics = nullptr;  // Not owned; optional.
};

struct RestoreReport {
  size_t claims = 0;             // Records restored.
  bool rebooted = false;         // The checkpoint is from another boot.
  std::string previous_boot_id;  // Its boot id, when rebooted.
  std::string corrupt_kept_as;   // A corrupt checkpoint moved here.
  std::string corrupt_reason;
  std::vector<std::string> conflicts;  // Records the ledger refused.
};

class ClaimPreparer : public ClaimHandler {
 public:
  explicit ClaimPreparer(ClaimPreparerOptions options);
  ~ClaimPreparer() override;
  ClaimPreparer(const ClaimPreparer&) = delete;
  ClaimPreparer& operator=(const ClaimPreparer&) = delete;

  // See above. An error (unreadable boot id or checkpoint, a corrupt file
  // that cannot be moved aside, a failed save) leaves the preparer
  // unusable; the caller should exit.
  StatusOr<RestoreReport> Restore();

  // Key: claim uid; one entry per distinct uid asked.
  std::map<std::string, PrepareOutcome> Prepare(
      const std::vector<ClaimRef>& claims) override;

  // Key: claim uid; "" = success, else the error.
  std::map<std::string, std::string> Unprepare(
      const std::vector<ClaimRef>& claims) override;

  // For inspection and tests: the records and the cards' usage.
  Checkpoint Snapshot() const;
  std::map<uint32_t, CardUsage> Usage() const;

 private:
  std::shared_ptr<std::mutex> LockFor(const std::string& uid);
  void Unlock(const std::string& uid);
  StatusOr<std::vector<PreparedDevice>> PrepareOne(const ClaimRef& ref);
  Status UnprepareOne(const ClaimRef& ref);
  void UpdateGaugesLocked() REQUIRES(mu_);

  const ClaimPreparerOptions options_;
  struct Metrics;
  std::unique_ptr<Metrics> metrics_;  // Null without a registry.

  base::Mutex locks_mu_;
  std::map<std::string, std::pair<std::shared_ptr<std::mutex>, int>>
      claim_locks_ GUARDED_BY(locks_mu_);

  mutable base::Mutex mu_;
  bool restored_ GUARDED_BY(mu_) = false;
  ShareLedger ledger_ GUARDED_BY(mu_);
  Checkpoint checkpoint_ GUARDED_BY(mu_);
};

}  // namespace gcushare::dra

#endif  // GCUSHARE_DRA_DRIVER_CLAIM_PREPARER_H_
