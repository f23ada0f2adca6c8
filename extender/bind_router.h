// BindRouter: where a bind is decided when several extender replicas serve
// behind one Service (docs/ha.md). Exactly one replica, the holder of the
// leader-election Lease (ha::LeaderElector), makes binding decisions; the
// others forward /bind to it. kube-scheduler may thus send any verb to any
// replica.
//
// For each bind:
// - no elector (a single replica, --leader-elect=false): bind here;
// - this replica leads (and has not stopped binding): once per term, catch
//   up with every committed binding first (`catch_up`); then bind here,
//   fenced: right before the Binding is written the term must still be
//   current, else nothing is written (ExtenderService::Bind's fence);
// - a bind forwarded by another replica that reaches a non-leader is
//   refused with HTTP 409 (no second hop: the caller's view was stale; it
//   waits for the binder it missed, as below);
// - else forward the body to the leader's URL (header
//   kForwardedByHeader) and answer its reply. When the forward fails (the
//   binder died: connection refused, or no answer) wait for another binder
//   and forward to it (or bind here once elected): safe, since a bind that
//   did commit is answered success by the next binder (already bound, it
//   has caught up). Only when no reachable binder appears within
//   `wait_for_leader` answer an error: nothing was bound here, and
//   kube-scheduler retries the pod.
// StopBinding() (SIGTERM) waits for the binds in flight here, after which
// every bind is forwarded.
//
// Thread-safety: Bind() from any thread. Ownership: everything borrowed.
#ifndef GCUSHARE_EXTENDER_BIND_ROUTER_H_
#define GCUSHARE_EXTENDER_BIND_ROUTER_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "base/clock.h"
#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "extender/extender_service.h"
#include "ha/leader_elector.h"
#include "kube/http_client.h"
#include "metrics/registry.h"
#include "status/status.h"

namespace gcushare::extender {

// Names the forwarding replica (its election identity).
inline constexpr std::string_view kForwardedByHeader =
    "X-GCUShare-Forwarded-By";

struct BindRouterOptions {
  // How long a bind waits for a reachable leader (a failover): about the
  // lease duration plus a retry period turns a SIGKILLed binder into slow
  // binds instead of failed ones; keep it well below kube-scheduler's
  // extender httpTimeout.
  std::chrono::milliseconds wait_for_leader{5000};
  // How often it looks meanwhile.
  std::chrono::milliseconds leader_poll{50};
  // The forwarded request's whole-exchange limit.
  std::chrono::milliseconds forward_timeout{10000};
};

class BindRouter {
 public:
  // `elector` null: every bind is local. `catch_up` runs once per term
  // before its first local bind (may be null: nothing to catch up).
  BindRouter(ExtenderService* service, ha::LeaderElector* elector,
             kube::HttpClient* http, base::Clock* clock,
             std::function<Status()> catch_up, metrics::Registry* registry,
             BindRouterOptions options = {});

  // The reply to a /bind with `body`; `forwarded_by` is the value of
  // kForwardedByHeader ("" when kube-scheduler called us directly).
  HttpReply Bind(std::string_view body, std::string_view forwarded_by);

  // After it returns no bind runs here and later ones are forwarded.
  void StopBinding();

  // {"identity", "leader", "leaderURL", "binder", "term", "catchUpTerm"}:
  // this replica's role, for /inspect/leader and tests.
  nlohmann::ordered_json Role();

 private:
  // OK once this term has caught up (running the catch-up if needed).
  Status CaughtUp(uint64_t term);
  // The binder's reply; nullopt (and `error`) when it could not be had.
  std::optional<HttpReply> Forward(std::string_view body,
                                   const ha::ObservedLeader& leader,
                                   std::string* error);
  HttpReply Error(const std::string& route, const std::string& message);

  ExtenderService* const service_;
  ha::LeaderElector* const elector_;
  kube::HttpClient* const http_;
  base::Clock* const clock_;
  const std::function<Status()> catch_up_;
  const BindRouterOptions options_;
  base::SharedMutex binding_mu_;  // Shared per local bind; StopBinding.
  bool stopped_ GUARDED_BY(binding_mu_) = false;
  base::Mutex catch_up_mu_;
  uint64_t caught_up_term_ GUARDED_BY(catch_up_mu_) = 0;
  metrics::Family<metrics::Counter>& routed_;
  metrics::Family<metrics::Histogram>& forward_seconds_;
};

}  // namespace gcushare::extender

#endif  // GCUSHARE_EXTENDER_BIND_ROUTER_H_
