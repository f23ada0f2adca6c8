#include "ha/leader_elector.h"

#include <spdlog/spdlog.h>

#include <utility>

#include "base/mutex.h"

namespace gcushare::ha {
namespace {

using std::chrono::duration_cast;
using std::chrono::milliseconds;
using std::chrono::nanoseconds;
using std::chrono::seconds;

}  // namespace

Status ValidateLeaderElection(const LeaderElectionOptions& options) {
  if (options.lease_namespace.empty() || options.lease_name.empty()) {
    return InvalidArgumentError(
        "leader election needs the Lease's namespace and name");
  }
  if (options.identity.empty()) {
    return InvalidArgumentError("leader election needs an identity");
  }
  if (options.lease_duration < seconds(1) ||
      options.lease_duration % seconds(1) != milliseconds(0)) {
    return InvalidArgumentError(
        "leader election lease duration must be whole seconds, at least 1 s "
        "(the Lease stores leaseDurationSeconds)");
  }
  if (options.renew_deadline >= options.lease_duration) {
    return InvalidArgumentError(
        "leader election renew deadline must be shorter than the lease "
        "duration (the old leader must stop before another can start)");
  }
  if (options.retry_period <= milliseconds(0) ||
      options.retry_period >= options.renew_deadline) {
    return InvalidArgumentError(
        "leader election retry period must be positive and shorter than the "
        "renew deadline (a leader gets several renewals per deadline)");
  }
  return OkStatus();
}

LeaderElector::LeaderElector(kube::KubeClient* client, base::Clock* clock,
                             LeaderElectionOptions options)
    : client_(client), clock_(clock), options_(std::move(options)) {}

void LeaderElector::SetCallbacks(std::function<void(uint64_t term)> started,
                                 std::function<void()> stopped) {
  started_ = std::move(started);
  stopped_ = std::move(stopped);
}

void LeaderElector::SetLeaderUrl(std::string url) {
  base::MutexLock step(step_mu_);
  options_.leader_url = std::move(url);
}

bool LeaderElector::IsLeaderLocked(Steady now) const {
  return held_ && !resigned_ && now < renewed_at_ + options_.renew_deadline;
}

void LeaderElector::ObserveLocked(const LeaseRecord& record, Steady now) {
  if (!observed_.has_value() || !observed_->SameRecord(record)) {
    if (observed_.has_value() && observed_->holder != record.holder &&
        !record.holder.empty()) {
      ++holder_changes_;
    }
    observed_at_ = now;
  }
  observed_ = record;
}

bool LeaderElector::DropLocked() {
  if (!held_) return false;
  held_ = false;
  term_ = 0;
  return true;
}

void LeaderElector::StepSoon(std::chrono::milliseconds min_interval) {
  {
    base::MutexLock lock(mu_);
    if (clock_->SteadyNow() < last_step_ + min_interval) return;
  }
  Step();
}

bool LeaderElector::Step() {
  base::MutexLock step(step_mu_);
  const Steady started = clock_->SteadyNow();
  {
    base::MutexLock lock(mu_);
    last_step_ = started;
  }
  auto got = client_->Get(LeaseResource(), options_.lease_namespace,
                          options_.lease_name);
  std::optional<LeaseRecord> current;
  bool stopped = false;
  bool may_write = true;
  {
    base::MutexLock lock(mu_);
    const Steady now = clock_->SteadyNow();
    if (!got.ok() && got.status().http_code() != 404) {
      spdlog::warn("leader election: cannot read Lease {}/{}: {}",
                   options_.lease_namespace, options_.lease_name,
                   got.status().message());
      may_write = false;
    } else if (got.ok()) {
      auto parsed = ParseLease(*got);
      if (!parsed.ok()) {
        spdlog::warn("leader election: Lease {}/{} unreadable: {}",
                     options_.lease_namespace, options_.lease_name,
                     parsed.status().message());
        may_write = false;
      } else {
        current = std::move(*parsed);
        ObserveLocked(*current, now);
      }
    }
    if (resigned_) may_write = false;
    if (may_write && current.has_value() && !current->holder.empty() &&
        current->holder != options_.identity &&
        now < observed_at_ + seconds(current->lease_duration_seconds)) {
      may_write = false;  // Held by another, not expired.
      stopped = DropLocked();
    }
    // A leadership that lapsed (no renewal within the deadline) ends here,
    // even when the Lease is still ours: a new term starts with the write.
    if (held_ && !IsLeaderLocked(now)) stopped = DropLocked();
  }
  if (stopped && stopped_) stopped_();
  if (!may_write) return IsLeader();
  return TryWrite(current, started);
}

bool LeaderElector::TryWrite(const std::optional<LeaseRecord>& current,
                             Steady started) {
  LeaseRecord record;
  const std::string now_text = FormatMicroTime(clock_->Now());
  bool renewing = false;
  {
    base::MutexLock lock(mu_);
    renewing =
        held_ && current.has_value() && current->holder == options_.identity;
  }
  record.holder = options_.identity;
  record.lease_duration_seconds =
      duration_cast<seconds>(options_.lease_duration).count();
  record.renew_time = now_text;
  record.leader_url = options_.leader_url;
  if (renewing) {
    record.acquire_time = current->acquire_time;
  } else {
    record.acquire_time = now_text;
  }
  // Counted when the holder changes (client-go's rule).
  const bool same_holder =
      current.has_value() && current->holder == options_.identity;
  record.transitions = !current.has_value() ? 0
                       : same_holder        ? current->transitions
                                            : current->transitions + 1;
  StatusOr<nlohmann::json> written = [&]() -> StatusOr<nlohmann::json> {
    if (!current.has_value()) {
      return client_->Create(
          LeaseResource(), options_.lease_namespace,
          LeaseObject(options_.lease_namespace, options_.lease_name, record));
    }
    record.resource_version = current->resource_version;
    return client_->Update(
        LeaseResource(), options_.lease_namespace,
        LeaseObject(options_.lease_namespace, options_.lease_name, record));
  }();
  bool started_cb = false, stopped_cb = false;
  uint64_t term = 0;
  {
    base::MutexLock lock(mu_);
    const Steady now = clock_->SteadyNow();
    if (written.ok() && !resigned_) {
      auto parsed = ParseLease(*written);
      ObserveLocked(parsed.ok() ? *parsed : record, now);
      renewed_at_ = started;
      if (!held_) {
        held_ = true;
        term_ = ++terms_started_;
        term = term_;
        started_cb = true;
      }
    } else {
      if (!written.ok() && written.status().http_code() != 409) {
        spdlog::warn("leader election: cannot write Lease {}/{}: {}",
                     options_.lease_namespace, options_.lease_name,
                     written.status().message());
      }
      if (held_ && !IsLeaderLocked(now)) stopped_cb = DropLocked();
    }
  }
  if (started_cb) {
    spdlog::info("leader election: became leader of {}/{} (term {})",
                 options_.lease_namespace, options_.lease_name, term);
    if (started_) started_(term);
  }
  if (stopped_cb) {
    spdlog::warn("leader election: lost leadership of {}/{}",
                 options_.lease_namespace, options_.lease_name);
    if (stopped_) stopped_();
  }
  return IsLeader();
}

void LeaderElector::Run(base::Cancellation* cancel) {
  while (!cancel->IsCancelled()) {
    Step();
    clock_->SleepFor(options_.retry_period, cancel);
  }
  if (Status s = Resign(); !s.ok()) {
    spdlog::warn("leader election: release failed: {}", s.message());
  }
}

Status LeaderElector::Resign() {
  base::MutexLock step(step_mu_);
  bool was_held = false;
  std::optional<LeaseRecord> last;
  {
    base::MutexLock lock(mu_);
    if (resigned_) return OkStatus();
    resigned_ = true;
    was_held = DropLocked();
    last = observed_;
  }
  if (!was_held) return OkStatus();
  if (stopped_) stopped_();
  if (!last.has_value() || last->holder != options_.identity) {
    return OkStatus();
  }
  LeaseRecord released = *last;
  released.holder = "";
  released.lease_duration_seconds = 1;
  released.leader_url = "";
  released.renew_time = released.acquire_time = FormatMicroTime(clock_->Now());
  auto written = client_->Update(
      LeaseResource(), options_.lease_namespace,
      LeaseObject(options_.lease_namespace, options_.lease_name, released));
  if (!written.ok()) return written.status();
  spdlog::info("leader election: released Lease {}/{}",
               options_.lease_namespace, options_.lease_name);
  return OkStatus();
}

bool LeaderElector::IsLeader() {
  base::MutexLock lock(mu_);
  return IsLeaderLocked(clock_->SteadyNow());
}

uint64_t LeaderElector::Term() {
  base::MutexLock lock(mu_);
  return IsLeaderLocked(clock_->SteadyNow()) ? term_ : 0;
}

nanoseconds LeaderElector::LeadershipLeft() {
  base::MutexLock lock(mu_);
  const Steady now = clock_->SteadyNow();
  if (!IsLeaderLocked(now)) return nanoseconds(0);
  return renewed_at_ + options_.renew_deadline - now;
}

ObservedLeader LeaderElector::Leader() {
  base::MutexLock lock(mu_);
  const Steady now = clock_->SteadyNow();
  ObservedLeader leader;
  if (!observed_.has_value() || observed_->holder.empty()) return leader;
  if (observed_->holder == options_.identity) {
    if (!IsLeaderLocked(now)) return leader;
    leader.self = true;
  } else if (now >= observed_at_ + seconds(observed_->lease_duration_seconds)) {
    return leader;
  }
  leader.identity = observed_->holder;
  leader.url = observed_->leader_url;
  return leader;
}

uint64_t LeaderElector::terms_started() {
  base::MutexLock lock(mu_);
  return terms_started_;
}

uint64_t LeaderElector::holder_changes() {
  base::MutexLock lock(mu_);
  return holder_changes_;
}

}  // namespace gcushare::ha
