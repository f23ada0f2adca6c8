// NriPlugin: keeps GCUShare registered with the container runtime. It runs
// sessions (session.h) one after another: when the runtime goes away
// (restart, closed socket, bad frames) it reconnects with exponential
// backoff until the runtime is back, and registers again. The backoff
// starts over after every successful registration.
//
// Ownership: borrows the adjuster and the clock. Thread-safety: Run() on
// one thread; the accessors from any thread.
#ifndef GCUSHARE_NRI_PLUGIN_PLUGIN_H_
#define GCUSHARE_NRI_PLUGIN_PLUGIN_H_

#include <chrono>

#include "base/backoff.h"
#include "base/cancellation.h"
#include "base/clock.h"
#include "base/mutex.h"
#include "nri-plugin/container_adjuster.h"
#include "nri-plugin/session.h"

namespace gcushare::nri {

struct PluginOptions {
  SessionOptions session;
  base::BackoffOptions backoff{std::chrono::milliseconds(200),
                               std::chrono::milliseconds(10000), 2.0, 0.2};
};

class NriPlugin {
 public:
  NriPlugin(PluginOptions options, ContainerAdjuster* adjuster,
            base::Clock* clock);

  // Connects, serves, reconnects; returns once `cancel` fires.
  void Run(base::Cancellation* cancel);

  // Successful registrations so far.
  int registrations() const;
  // Waits until registrations() >= n; false after `timeout`.
  bool WaitForRegistrations(int n, std::chrono::milliseconds timeout);

 private:
  PluginOptions options_;
  ContainerAdjuster* adjuster_;
  base::Clock* clock_;
  mutable base::Mutex mu_;
  base::CondVar cv_;
  int registrations_ GUARDED_BY(mu_) = 0;
};

}  // namespace gcushare::nri

#endif  // GCUSHARE_NRI_PLUGIN_PLUGIN_H_
