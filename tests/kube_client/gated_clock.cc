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
      std::lock_guard<std::mutex> lock(mu_);
      cv_.notify_all();
    });
  }
  {
    std::unique_lock<std::mutex> lock(mu_);
    if (!open_) {
      ++held_;
      cv_.notify_all();
      cv_.wait(lock, [&] {
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
  std::lock_guard<std::mutex> lock(mu_);
  open_ = false;
}

void GatedClock::Open() {
  std::lock_guard<std::mutex> lock(mu_);
  open_ = true;
  cv_.notify_all();
}

bool GatedClock::WaitForHeldSleeps(size_t count,
                                   std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mu_);
  return cv_.wait_for(lock, timeout, [&] { return held_ >= count; });
}

}  // namespace gcushare::kube_client_test
