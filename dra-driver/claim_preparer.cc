#include "dra-driver/claim_preparer.h"

#include <sys/stat.h>

#include <chrono>
#include <utility>

#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "dra-driver/claim_cdi.h"
#include "dra-driver/memory_quantity.h"
#include "kube/resource.h"

namespace gcushare::dra {

struct ClaimPreparer::Metrics {
  explicit Metrics(metrics::Registry& registry)
      : prepares(registry.AddCounter(
            "gcushare_dra_driver_prepares_total",
            "Claims the kubelet asked to prepare, by result (ok, error).",
            {"result"})),
        unprepares(registry.AddCounter(
            "gcushare_dra_driver_unprepares_total",
            "Claims the kubelet asked to unprepare, by result (ok, error).",
            {"result"})),
        prepare_seconds(registry.AddHistogram(
            "gcushare_dra_driver_prepare_seconds",
            "Time to prepare one claim (API GET, checkpoint, CDI spec).", {},
            metrics::ExponentialBuckets(0.001, 2, 14))),
        prepared_claims(registry.AddGauge(
            "gcushare_dra_driver_prepared_claims",
            "Claims in the checkpoint (prepared or being prepared).")),
        card_held_bytes(registry.AddGauge(
            "gcushare_dra_driver_card_held_bytes",
            "Card memory held by prepared claims (a whole card counts in "
            "full).",
            {"card"})) {}

  metrics::Family<metrics::Counter>& prepares;
  metrics::Family<metrics::Counter>& unprepares;
  metrics::Family<metrics::Histogram>& prepare_seconds;
  metrics::Family<metrics::Gauge>& prepared_claims;
  metrics::Family<metrics::Gauge>& card_held_bytes;
};

namespace {

bool FileExists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

std::vector<PreparedDevice> Answer(const std::string& uid,
                                   const CheckpointClaim& record) {
  std::vector<PreparedDevice> devices;
  for (const CheckpointDevice& device : record.devices) {
    PreparedDevice out;
    out.request_names = {BaseRequestName(device.result.request)};
    out.pool_name = device.result.pool;
    out.device_name = device.result.device;
    out.cdi_device_ids = device.cdi_ids;
    out.share_id = device.result.share_id;
    devices.push_back(std::move(out));
  }
  (void)uid;
  return devices;
}

Status CheckRef(const ClaimRef& ref) {
  if (ref.ns.empty() || ref.name.empty()) {
    return InvalidArgumentError(DescribeClaim(ref.ns, ref.name, ref.uid) +
                                ": namespace and name are required");
  }
  Status uid = CheckClaimUid(ref.uid);
  if (!uid.ok()) {
    return Status(uid.code(), DescribeClaim(ref.ns, ref.name, ref.uid) + ": " +
                                  uid.message());
  }
  return OkStatus();
}

}  // namespace

ClaimPreparer::ClaimPreparer(ClaimPreparerOptions options)
    : options_(std::move(options)), ledger_(options_.inventory) {
  if (options_.metrics != nullptr) {
    metrics_ = std::make_unique<Metrics>(*options_.metrics);
  }
}

ClaimPreparer::~ClaimPreparer() = default;

std::shared_ptr<std::mutex> ClaimPreparer::LockFor(const std::string& uid) {
  base::MutexLock lock(locks_mu_);
  auto& entry = claim_locks_[uid];
  if (!entry.first) entry.first = std::make_shared<std::mutex>();
  ++entry.second;
  return entry.first;
}

void ClaimPreparer::Unlock(const std::string& uid) {
  base::MutexLock lock(locks_mu_);
  auto it = claim_locks_.find(uid);
  if (it != claim_locks_.end() && --it->second.second == 0) {
    claim_locks_.erase(it);
  }
}

StatusOr<RestoreReport> ClaimPreparer::Restore() {
  StatusOr<std::string> boot = ReadBootId(options_.boot_id_path);
  if (!boot.ok()) return boot.status();
  StatusOr<LoadedCheckpoint> loaded =
      LoadCheckpoint(options_.checkpoint_path, options_.clock->Now());
  if (!loaded.ok()) return loaded.status();

  RestoreReport report;
  report.corrupt_kept_as = loaded->corrupt_kept_as;
  report.corrupt_reason = loaded->corrupt_reason;
  base::MutexLock lock(mu_);
  ShareLedger ledger(options_.inventory);
  for (const auto& [uid, record] : loaded->checkpoint.claims) {
    Status admitted = ledger.Admit(uid, ToAllocatedClaim(uid, record).results);
    if (!admitted.ok()) {
      report.conflicts.push_back(DescribeClaim(record.ns, record.name, uid) +
                                 ": " + admitted.message());
    }
  }
  report.claims = loaded->checkpoint.claims.size();
  report.rebooted = loaded->found && loaded->checkpoint.boot_id != *boot;
  if (report.rebooted) report.previous_boot_id = loaded->checkpoint.boot_id;
  Checkpoint checkpoint = std::move(loaded->checkpoint);
  checkpoint.boot_id = *boot;
  if (!loaded->found || report.rebooted) {
    Status saved = SaveCheckpoint(checkpoint, options_.checkpoint_path);
    if (!saved.ok()) return saved;
  }
  checkpoint_ = std::move(checkpoint);
  ledger_ = std::move(ledger);
  restored_ = true;
  UpdateGaugesLocked();
  return report;
}

std::map<std::string, PrepareOutcome> ClaimPreparer::Prepare(
    const std::vector<ClaimRef>& claims) {
  std::map<std::string, PrepareOutcome> out;
  for (const ClaimRef& ref : claims) {
    if (out.count(ref.uid) != 0) continue;
    const auto start = options_.clock->SteadyNow();
    std::shared_ptr<std::mutex> claim_mu = LockFor(ref.uid);
    StatusOr<std::vector<PreparedDevice>> devices = [&] {
      std::lock_guard<std::mutex> claim_lock(*claim_mu);
      return PrepareOne(ref);
    }();
    Unlock(ref.uid);
    PrepareOutcome& outcome = out[ref.uid];
    const bool ok = devices.ok();
    if (ok) {
      outcome.devices = *std::move(devices);
    } else {
      outcome.error = devices.status().message();
    }
    if (metrics_) {
      metrics_->prepares.WithLabels({ok ? "ok" : "error"}).Increment();
      metrics_->prepare_seconds.Get().Observe(
          std::chrono::duration<double>(options_.clock->SteadyNow() - start)
              .count());
    }
  }
  return out;
}

std::map<std::string, std::string> ClaimPreparer::Unprepare(
    const std::vector<ClaimRef>& claims) {
  std::map<std::string, std::string> out;
  for (const ClaimRef& ref : claims) {
    if (out.count(ref.uid) != 0) continue;
    std::shared_ptr<std::mutex> claim_mu = LockFor(ref.uid);
    Status status = [&] {
      std::lock_guard<std::mutex> claim_lock(*claim_mu);
      return UnprepareOne(ref);
    }();
    Unlock(ref.uid);
    out[ref.uid] = status.ok() ? "" : status.message();
    if (metrics_) {
      metrics_->unprepares.WithLabels({status.ok() ? "ok" : "error"})
          .Increment();
    }
  }
  return out;
}

StatusOr<std::vector<PreparedDevice>> ClaimPreparer::PrepareOne(
    const ClaimRef& ref) {
  Status valid = CheckRef(ref);
  if (!valid.ok()) return valid;
  const std::string who = DescribeClaim(ref.ns, ref.name, ref.uid);
  {
    base::MutexLock lock(mu_);
    if (!restored_) {
      return FailedPreconditionError(who +
                                     ": the driver has not restored its "
                                     "checkpoint yet");
    }
    auto it = checkpoint_.claims.find(ref.uid);
    if (it != checkpoint_.claims.end() &&
        it->second.state == ClaimState::kPrepareCompleted) {
      if (!FileExists(ClaimSpecPath(options_.cdi_dir, ref.uid))) {
        // Rebooted (or someone removed it): rewrite from the record.
        StatusOr<cdi::Spec> spec =
            BuildClaimSpec(ToAllocatedClaim(ref.uid, it->second),
                           options_.inventory, options_.memory_unit);
        if (!spec.ok()) return spec.status();
        StatusOr<std::string> path =
            WriteClaimSpec(*spec, options_.cdi_dir, ref.uid);
        if (!path.ok()) return path.status().WithContext(who);
      }
      return Answer(ref.uid, it->second);
    }
  }

  StatusOr<nlohmann::json> object =
      options_.kube->Get(kube::Resource::ResourceClaims(), ref.ns, ref.name);
  if (!object.ok()) {
    if (object.status().code() == StatusCode::kNotFound ||
        object.status().http_code() == 404) {
      return NotFoundError(who + ": not found in the API server");
    }
    return object.status().WithContext(who + ": cannot get the claim");
  }
  StatusOr<AllocatedClaim> claim = ParseAllocatedClaim(
      *object, ref.ns, ref.name, ref.uid, options_.node_name);
  if (!claim.ok()) return claim.status();
  if (claim->results.empty()) return std::vector<PreparedDevice>();
  StatusOr<cdi::Spec> spec =
      BuildClaimSpec(*claim, options_.inventory, options_.memory_unit);
  if (!spec.ok()) return spec.status();

  CheckpointClaim record;
  record.ns = ref.ns;
  record.name = ref.name;
  record.state = ClaimState::kPrepareStarted;
  record.cdi_spec_file = ClaimSpecPath(options_.cdi_dir, ref.uid);
  for (const AllocatedResult& result : claim->results) {
    record.devices.push_back({result, {ClaimCdiDeviceId(ref.uid, result)}});
  }

  base::MutexLock lock(mu_);
  std::optional<CheckpointClaim> old;
  if (auto it = checkpoint_.claims.find(ref.uid);
      it != checkpoint_.claims.end()) {
    old = it->second;  // A PrepareStarted record: redo it.
  }
  auto restore_ledger = [&]() REQUIRES(mu_) {
    ledger_.Release(ref.uid);
    if (old) {
      (void)ledger_.Admit(ref.uid, ToAllocatedClaim(ref.uid, *old).results);
    }
  };
  ledger_.Release(ref.uid);
  Status admitted = ledger_.Admit(ref.uid, claim->results);
  if (!admitted.ok()) {
    restore_ledger();
    return Status(admitted.code(), who + ": " + admitted.message());
  }
  // The CDI spec first, then the record: one checkpoint write per claim
  // (a fsync'd atomic rewrite is most of a Prepare's time). A crash in
  // between leaves a spec without a record, which is harmless: the kubelet
  // has no answer yet, so it prepares the claim again (the spec is
  // rewritten), and Unprepare of a claim without a record removes a spec
  // left behind. Checkpoints of earlier versions may still hold
  // PrepareStarted records; they are redone the same way.
  StatusOr<std::string> path = WriteClaimSpec(*spec, options_.cdi_dir, ref.uid);
  if (!path.ok()) {
    restore_ledger();
    return path.status().WithContext(who + ": cannot write the CDI spec");
  }
  Checkpoint next = checkpoint_;
  next.claims[ref.uid] = record;
  next.claims[ref.uid].state = ClaimState::kPrepareCompleted;
  Status saved = SaveCheckpoint(next, options_.checkpoint_path);
  if (!saved.ok()) {
    if (!old) (void)RemoveClaimSpec(options_.cdi_dir, ref.uid);
    restore_ledger();
    return saved.WithContext(who + ": cannot save the checkpoint");
  }
  checkpoint_ = std::move(next);
  UpdateGaugesLocked();
  return Answer(ref.uid, checkpoint_.claims[ref.uid]);
}

Status ClaimPreparer::UnprepareOne(const ClaimRef& ref) {
  Status valid = CheckClaimUid(ref.uid);
  if (!valid.ok()) {
    return Status(valid.code(), DescribeClaim(ref.ns, ref.name, ref.uid) +
                                    ": " + valid.message());
  }
  const std::string who = DescribeClaim(ref.ns, ref.name, ref.uid);
  base::MutexLock lock(mu_);
  if (!restored_) {
    return FailedPreconditionError(who +
                                   ": the driver has not restored its "
                                   "checkpoint yet");
  }
  Status removed = RemoveClaimSpec(options_.cdi_dir, ref.uid);
  if (!removed.ok()) return removed.WithContext(who);
  auto it = checkpoint_.claims.find(ref.uid);
  if (it == checkpoint_.claims.end()) return OkStatus();
  Checkpoint next = checkpoint_;
  next.claims.erase(ref.uid);
  Status saved = SaveCheckpoint(next, options_.checkpoint_path);
  if (!saved.ok()) {
    return saved.WithContext(who + ": cannot save the checkpoint");
  }
  checkpoint_ = std::move(next);
  ledger_.Release(ref.uid);
  UpdateGaugesLocked();
  return OkStatus();
}

void ClaimPreparer::UpdateGaugesLocked() {
  if (!metrics_) return;
  metrics_->prepared_claims.Get().Set(
      static_cast<double>(checkpoint_.claims.size()));
  for (const auto& [index, usage] : ledger_.Usage()) {
    metrics_->card_held_bytes.WithLabels({std::to_string(index)})
        .Set(static_cast<double>(usage.held_millibytes) / 1000.0);
  }
}

Checkpoint ClaimPreparer::Snapshot() const {
  base::MutexLock lock(mu_);
  return checkpoint_;
}

std::map<uint32_t, CardUsage> ClaimPreparer::Usage() const {
  base::MutexLock lock(mu_);
  return ledger_.Usage();
}

}  // namespace gcushare::dra
