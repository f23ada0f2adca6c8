#include "nri-plugin/plugin.h"

#include <spdlog/spdlog.h>

namespace gcushare::nri {

NriPlugin::NriPlugin(PluginOptions options, ContainerAdjuster* adjuster,
                     base::Clock* clock)
    : options_(std::move(options)), adjuster_(adjuster), clock_(clock) {}

void NriPlugin::Run(base::Cancellation* cancel) {
  base::Backoff backoff(options_.backoff);
  while (!cancel->IsCancelled()) {
    bool registered = false;
    Status why = RunSession(options_.session, adjuster_, cancel, [&] {
      registered = true;
      std::lock_guard<std::mutex> lock(mu_);
      ++registrations_;
      cv_.notify_all();
    });
    if (cancel->IsCancelled()) break;
    if (registered) backoff.Reset();
    if (options_.session.metrics != nullptr) {
      options_.session.metrics->Reconnecting();
    }
    auto delay = backoff.Next();
    spdlog::warn(
        "NRI connection ended: {}; reconnecting in {} ms", why.ToString(),
        std::chrono::duration_cast<std::chrono::milliseconds>(delay).count());
    clock_->SleepFor(delay, cancel);
  }
  spdlog::info("NRI plugin stopped");
}

int NriPlugin::registrations() const {
  std::lock_guard<std::mutex> lock(mu_);
  return registrations_;
}

bool NriPlugin::WaitForRegistrations(int n, std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mu_);
  return cv_.wait_for(lock, timeout, [&] { return registrations_ >= n; });
}

}  // namespace gcushare::nri
