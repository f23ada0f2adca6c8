#include "extender/bind_router.h"

#include <spdlog/spdlog.h>

#include <utility>

#include "base/mutex.h"
#include "contract/names.h"
#include "extender/protocol.h"

namespace gcushare::extender {
namespace {

// How often binds waiting for a binder may make the elector look at the
// Lease (one GET, or a take of a free Lease), at most.
constexpr std::chrono::milliseconds kLeaseLookInterval{100};

}  // namespace

BindRouter::BindRouter(ExtenderService* service, ha::LeaderElector* elector,
                       kube::HttpClient* http, base::Clock* clock,
                       std::function<Status()> catch_up,
                       metrics::Registry* registry, BindRouterOptions options)
    : service_(service),
      elector_(elector),
      http_(http),
      clock_(clock),
      catch_up_(std::move(catch_up)),
      options_(options),
      routed_(registry->AddCounter(
          "gcushare_extender_binds_routed_total",
          "Binds by where they were decided: local (this replica is the "
          "binder), forwarded (to the binder, answered), forward_failed, "
          "no_binder (none elected in time), refused (forwarded here but "
          "this replica is not the binder), catch_up_failed.",
          {"route"})),
      forward_seconds_(registry->AddHistogram(
          "gcushare_extender_bind_forward_duration_seconds",
          "Time to forward a bind to the binder and get its answer.", {},
          metrics::ExponentialBuckets(0.0005, 2, 16))) {}

HttpReply BindRouter::Error(const std::string& route,
                            const std::string& message) {
  routed_.WithLabels({route}).Increment();
  spdlog::warn("bind not done ({}): {}", route, message);
  return HttpReply{200, EncodeBindingResult(message)};
}

Status BindRouter::CaughtUp(uint64_t term) {
  base::MutexLock lock(catch_up_mu_);
  if (caught_up_term_ == term) return OkStatus();
  if (catch_up_) GCUSHARE_RETURN_IF_ERROR(catch_up_());
  caught_up_term_ = term;
  return OkStatus();
}

HttpReply BindRouter::Bind(std::string_view body,
                           std::string_view forwarded_by) {
  if (elector_ == nullptr) {
    routed_.WithLabels({"local"}).Increment();
    return service_->Bind(body);
  }
  const auto give_up = clock_->SteadyNow() + options_.wait_for_leader;
  // The binder a forward could not reach: wait for another (its Lease
  // expires) rather than fail, while the wait lasts.
  std::string unreachable;
  std::string last_error;
  while (true) {
    {
      base::ReaderMutexLock lock(binding_mu_);
      const uint64_t term = stopped_ ? 0 : elector_->Term();
      if (term != 0) {
        if (Status s = CaughtUp(term); !s.ok()) {
          return Error("catch_up_failed",
                       "the binder could not read the committed bindings (" +
                           s.message() + "); nothing changed");
        }
        routed_.WithLabels({"local"}).Increment();
        return service_->Bind(body, [this, term]() -> Status {
          if (elector_->Term() != term) {
            return UnavailableError(
                "this replica lost the right to bind (leader election) "
                "before writing the Binding");
          }
          return OkStatus();
        });
      }
    }
    if (!forwarded_by.empty()) {
      // 409 to the forwarding replica (never kube-scheduler): it waits for
      // the binder its view missed and forwards again.
      HttpReply refused =
          Error("refused", "bind forwarded by " + std::string(forwarded_by) +
                               " to " + elector_->options().identity +
                               ", which is not the binder; nothing changed");
      refused.status = 409;
      return refused;
    }
    const ha::ObservedLeader leader = elector_->Leader();
    if (!leader.identity.empty() && !leader.self && !leader.url.empty() &&
        leader.identity != unreachable) {
      std::optional<HttpReply> reply = Forward(body, leader, &last_error);
      if (reply.has_value()) return *std::move(reply);
      unreachable = leader.identity;
    }
    if (clock_->SteadyNow() >= give_up) {
      if (!last_error.empty()) return Error("forward_failed", last_error);
      return Error("no_binder",
                   "no extender replica holds the binding Lease now; nothing "
                   "changed");
    }
    clock_->SleepFor(options_.leader_poll, nullptr);
    // Look at the Lease now rather than at the next retry period: a free
    // Lease is taken (or the new binder seen) at once.
    elector_->StepSoon(kLeaseLookInterval);
  }
}

std::optional<HttpReply> BindRouter::Forward(std::string_view body,
                                             const ha::ObservedLeader& leader,
                                             std::string* error) {
  kube::HttpRequest request;
  request.method = "POST";
  request.url =
      leader.url + std::string(contract::kExtenderPathPrefix) + "/bind";
  request.headers = {
      {"Content-Type", "application/json"},
      {std::string(kForwardedByHeader), elector_->options().identity}};
  request.body = std::string(body);
  request.timeout = options_.forward_timeout;
  const auto start = clock_->SteadyNow();
  kube::HttpResult result = http_->Send(request);
  forward_seconds_.Get().Observe(
      std::chrono::duration<double>(clock_->SteadyNow() - start).count());
  if (!result.status.ok()) {
    *error = "cannot forward the bind to the binder " + leader.identity +
             " at " + leader.url + ": " + result.status.message() +
             "; nothing bound by this replica";
    spdlog::warn("{}; waiting for another binder", *error);
    return std::nullopt;
  }
  if (result.response.status_code != 200) {
    *error = "the binder " + leader.identity + " answered HTTP " +
             std::to_string(result.response.status_code) +
             " to a forwarded bind; nothing bound by this replica";
    spdlog::warn("{}; waiting for another binder", *error);
    return std::nullopt;
  }
  routed_.WithLabels({"forwarded"}).Increment();
  return HttpReply{200, std::move(result.response.body)};
}

void BindRouter::StopBinding() {
  base::WriterMutexLock lock(binding_mu_);
  stopped_ = true;
}

nlohmann::ordered_json BindRouter::Role() {
  nlohmann::ordered_json role;
  if (elector_ == nullptr) {
    role["identity"] = "";
    role["leaderElection"] = false;
    role["binder"] = true;
    return role;
  }
  const ha::ObservedLeader leader = elector_->Leader();
  const uint64_t term = elector_->Term();
  bool stopped;
  {
    base::ReaderMutexLock lock(binding_mu_);
    stopped = stopped_;
  }
  role["identity"] = elector_->options().identity;
  role["leaderElection"] = true;
  role["leader"] = leader.identity;
  role["leaderURL"] = leader.url;
  role["binder"] = term != 0 && !stopped;
  role["term"] = term;
  {
    base::MutexLock lock(catch_up_mu_);
    role["caughtUpTerm"] = caught_up_term_;
  }
  return role;
}

}  // namespace gcushare::extender
