#include "device-plugin/registration_loop.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "base/guarded_thread.h"

namespace gcushare::deviceplugin {
namespace {

double Seconds(std::chrono::nanoseconds d) {
  return std::chrono::duration<double>(d).count();
}

}  // namespace

RegistrationLoop::RegistrationLoop(RegistrationOptions options,
                                   ServingControl* server,
                                   KubeletRegistrar* registrar,
                                   FileProber* prober, base::Clock* clock)
    : options_(std::move(options)),
      server_(server),
      registrar_(registrar),
      prober_(prober),
      clock_(clock) {}

RegistrationLoop::~RegistrationLoop() { Stop(); }

void RegistrationLoop::Start() {
  if (thread_.joinable()) return;
  thread_ = base::StartGuardedThread("kubelet registration", [this] { Run(); });
}

void RegistrationLoop::Stop() {
  cancel_.Cancel();
  if (thread_.joinable()) thread_.join();
}

void RegistrationLoop::Run() {
  base::Backoff backoff(options_.backoff);
  RestartDetector detector(options_.kubelet_socket, options_.plugin_socket,
                           prober_);
  bool serve = true;
  while (!cancel_.IsCancelled()) {
    if (serve) {
      Status s = server_->Restart();
      if (!s.ok()) {
        std::chrono::nanoseconds wait = backoff.Next();
        spdlog::error("{}; trying again in {:.1f}s", s.message(),
                      Seconds(wait));
        clock_->SleepFor(wait, &cancel_);
        continue;
      }
      serve = false;
    }
    detector.Arm();
    Status s = registrar_->Register(options_.request);
    if (!s.ok()) {
      failures_++;
      std::chrono::nanoseconds wait = backoff.Next();
      if (s.code() == StatusCode::kUnavailable) {
        spdlog::warn(
            "kubelet is not available ({}); registering again in {:.1f}s "
            "(attempt {})",
            s.message(), Seconds(wait), backoff.attempt());
      } else {
        spdlog::error(
            "kubelet refused the registration ({}); trying again "
            "in {:.1f}s (attempt {})",
            s.message(), Seconds(wait), backoff.attempt());
      }
      // Sleep in poll steps, so that a kubelet that (re)appears is seen at
      // once rather than after the whole backoff.
      while (wait > std::chrono::nanoseconds(0) && !cancel_.IsCancelled()) {
        std::chrono::nanoseconds step =
            std::min<std::chrono::nanoseconds>(wait, options_.poll_interval);
        if (!clock_->SleepFor(step, &cancel_)) break;
        wait -= step;
        if (detector.Check()) break;
      }
      // A kubelet that started meanwhile deleted our socket.
      if (!prober_->Probe(options_.plugin_socket).exists) serve = true;
      continue;
    }
    registrations_++;
    backoff.Reset();
    spdlog::info(
        "registered {} with kubelet at {} (endpoint {}, "
        "registration {})",
        options_.request.resource_name(), options_.kubelet_socket,
        options_.request.endpoint(), registrations_.load());
    while (clock_->SleepFor(options_.poll_interval, &cancel_)) {
      if (std::optional<std::string> why = detector.Check()) {
        spdlog::info("kubelet restarted ({}): serving and registering again",
                     *why);
        serve = true;
        break;
      }
    }
  }
}

}  // namespace gcushare::deviceplugin
