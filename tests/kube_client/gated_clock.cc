#include "tests/kube_client/gated_clock.h"

namespace gcushare::kube_client_test {

std::chrono::system_clock::time_point GatedClock::Now() { return real_.Now(); }

std::chrono::steady_clock::time_point GatedClock::SteadyNow() {
  return real_.SteadyNow();
}

bool GatedClock::SleepFor(std::chrono::nanoseconds duration,
                          base::Cancellation* cancel) {
  base::Cancellation::WakerId waker = 0;
  if (cancel != nullptr) {
    waker = cancel->AddWaker([this] {
      base::MutexLock lock(mu_);
      cv_.NotifyAll();
    });
  }
  {
    base::MutexLock lock(mu_);
    if (!open_) {
      ++held_;
      cv_.NotifyAll();
      cv_.Wait(lock, [this, cancel]() REQUIRES(mu_) {
        return open_ || (cancel != nullptr && cancel->IsCancelled());
      });
      --held_;
    }
  }
  if (cancel != nullptr) cancel->RemoveWaker(waker);
  if (cancel != nullptr && cancel->IsCancelled()) return false;
  return real_.SleepFor(duration, cancel);
}

void GatedClock::Close() {
  base::MutexLock lock(mu_);
  open_ = false;
}

void GatedClock::Open() {
  base::MutexLock lock(mu_);
  open_ = true;
  cv_.NotifyAll();
}

bool GatedClock::WaitForHeldSleeps(size_t count,
                                   std::chrono::milliseconds timeout) {
  base::MutexLock lock(mu_);
  return cv_.WaitFor(lock, timeout,
                     [this, count]() REQUIRES(mu_) { return held_ >= count; });
}

}  // namespace gcushare::kube_client_test
