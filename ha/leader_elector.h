// LeaderElector: leader election through one coordination.k8s.io/v1
// Lease, with client-go's rules (k8s.io/client-go/tools/leaderelection):
//
// - A candidate reads the Lease every retry_period. It may take it only
//   when it is free (no holder) or when its record has not changed for
//   the record's leaseDurationSeconds as measured by the candidate's own
//   monotonic clock from the moment it first saw that record (no clock
//   agreement between replicas is needed, only equal clock rates).
// - Taking and renewing are conditional PUTs (metadata.resourceVersion),
//   so of two candidates only one wins; creating a missing Lease is a
//   POST (409 for the loser).
// - Fencing by time: the holder counts as leader (IsLeader) only until
//   renew_deadline after the start of its last successful renewal. Every
//   other replica waits lease_duration from the moment it saw that
//   renewal, which is after its start; with renew_deadline <
//   lease_duration the old leader stops before anyone can take over,
//   leaving lease_duration - renew_deadline for a write in flight.
// - Resign() stops claiming and hands the Lease over at once (holder ""),
//   so a stopping replica costs no lease_duration wait.
//
// The leader also writes its URL (LeaseRecord::leader_url) so that the
// others can forward work to it (Leader()).
//
// Thread-safety: every method from any thread; Step() and Resign() are
// serialized (a Resign() waits for the step under way). Time only through the
// injected Clock, so tests move time by hand. Ownership: client, clock
// borrowed. Failure: API errors only make a step fail (logged); the loop goes
// on.
#ifndef GCUSHARE_HA_LEADER_ELECTOR_H_
#define GCUSHARE_HA_LEADER_ELECTOR_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "base/cancellation.h"
#include "base/clock.h"
#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "ha/lease_record.h"
#include "kube/kube_client.h"
#include "status/status.h"

namespace gcushare::ha {

struct LeaderElectionOptions {
  std::string lease_namespace;
  std::string lease_name;
  std::string identity;    // Unique per process (host name + random).
  std::string leader_url;  // Where this replica answers the others.
  std::chrono::milliseconds lease_duration{4000};
  std::chrono::milliseconds renew_deadline{3000};
  std::chrono::milliseconds retry_period{500};
};

// OK, or InvalidArgument naming the rule broken: names and identity set;
// lease_duration whole seconds (the Lease stores seconds), at least 1 s;
// lease_duration > renew_deadline > retry_period > 0.
Status ValidateLeaderElection(const LeaderElectionOptions& options);

// The leader as last observed.
struct ObservedLeader {
  std::string identity;  // "" when none holds an unexpired Lease.
  std::string url;
  bool self = false;
};

class LeaderElector {
 public:
  // `options` must pass ValidateLeaderElection.
  LeaderElector(kube::KubeClient* client, base::Clock* clock,
                LeaderElectionOptions options);

  // Called on the election thread when this replica becomes leader (with
  // its new term, counting from 1) and when it stops being leader (lost,
  // failed to renew in time, or resigned). Set before Run().
  void SetCallbacks(std::function<void(uint64_t term)> started,
                    std::function<void()> stopped);

  // Replaces options().leader_url (e.g. once the listening port is known);
  // call before Run().
  void SetLeaderUrl(std::string url);

  // One attempt to take or renew the Lease. Returns whether this replica
  // holds it now.
  bool Step();
  // Step() now unless a step started less than `min_interval` ago: for a
  // caller that is waiting for a leader (a bind during a failover), so a
  // free Lease is taken, or a new holder seen, without waiting for the
  // next retry period, at a bounded cost to the API server.
  void StepSoon(std::chrono::milliseconds min_interval);
  // Step() every retry_period until `cancel` fires, then Resign().
  void Run(base::Cancellation* cancel);
  // Stops claiming: IsLeader() is false from now on (the `stopped`
  // callback runs first when it was leader), and a held Lease is written
  // free (holder "", leaseDurationSeconds 1) so a follower takes it at its
  // next step. Later Step()s only observe. Returns the API error, if any.
  Status Resign();

  // True while this replica may act as leader: it holds the Lease and its
  // last successful renewal started less than renew_deadline ago.
  bool IsLeader();
  // The term of the current leadership (0 when not leader).
  uint64_t Term();
  // How long IsLeader() stays true without another renewal (zero when not
  // leader).
  std::chrono::nanoseconds LeadershipLeft();
  ObservedLeader Leader();
  // Times this replica became leader; times it saw the holder change.
  uint64_t terms_started();
  uint64_t holder_changes();

  const LeaderElectionOptions& options() const { return options_; }

 private:
  using Steady = std::chrono::steady_clock::time_point;
  bool IsLeaderLocked(Steady now) const REQUIRES(mu_);
  // Records `record` as observed at `now` (restarting the expiry wait when
  // it changed).
  void ObserveLocked(const LeaseRecord& record, Steady now) REQUIRES(mu_);
  // Ends leadership if held; returns whether the stopped callback is due.
  bool DropLocked() REQUIRES(mu_);
  // The write that takes or renews, given the record read (nullopt: none).
  bool TryWrite(const std::optional<LeaseRecord>& current, Steady started);

  kube::KubeClient* const client_;
  base::Clock* const clock_;
  LeaderElectionOptions options_;  // leader_url set before Run() only.
  std::function<void(uint64_t)> started_;
  std::function<void()> stopped_;

  base::Mutex step_mu_;  // Held through Step() and Resign().
  base::Mutex mu_;
  bool resigned_ GUARDED_BY(mu_) = false;
  bool held_ GUARDED_BY(mu_) = false;
  // Start of the last successful take or renewal.
  Steady renewed_at_ GUARDED_BY(mu_){};
  uint64_t term_ GUARDED_BY(mu_) = 0;
  uint64_t terms_started_ GUARDED_BY(mu_) = 0;
  uint64_t holder_changes_ GUARDED_BY(mu_) = 0;
  std::optional<LeaseRecord> observed_ GUARDED_BY(mu_);
  Steady last_step_ GUARDED_BY(mu_){};  // Start of the last Step().
  Steady observed_at_ GUARDED_BY(mu_){};
};

}  // namespace gcushare::ha

#endif  // GCUSHARE_HA_LEADER_ELECTOR_H_
