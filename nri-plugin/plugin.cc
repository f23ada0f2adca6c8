#include "nri-plugin/plugin.h"

#include <spdlog/spdlog.h>

#include "base/mutex.h"
#include "base/thread_annotations.h"

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
      base::MutexLock lock(mu_);
      ++registrations_;
      cv_.NotifyAll();
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
  base::MutexLock lock(mu_);
  return registrations_;
}

bool NriPlugin::WaitForRegistrations(int n, std::chrono::milliseconds timeout) {
  base::MutexLock lock(mu_);
  return cv_.WaitFor(lock, timeout,
                     [&]() REQUIRES(mu_) { return registrations_ >= n; });
}

}  // namespace gcushare::nri
