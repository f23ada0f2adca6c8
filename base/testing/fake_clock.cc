#include "base/testing/fake_clock.h"

#include <thread>

namespace gcushare::base {

FakeClock::FakeClock()
    // 2024-05-01T12:00:00Z: a fixed, recognisable start.
    : wall_(std::chrono::system_clock::time_point(
          std::chrono::seconds(1714564800))),
      steady_(std::chrono::steady_clock::time_point(std::chrono::hours(1))) {}

std::chrono::system_clock::time_point FakeClock::Now() {
  base::MutexLock lock(mu_);
  return wall_;
}

std::chrono::steady_clock::time_point FakeClock::SteadyNow() {
  base::MutexLock lock(mu_);
  return steady_;
}

bool FakeClock::SleepFor(std::chrono::nanoseconds duration,
                         Cancellation* cancel) {
  std::chrono::microseconds pause;
  {
    base::MutexLock lock(mu_);
    sleeps_.push_back(duration);
    wall_ += std::chrono::duration_cast<std::chrono::system_clock::duration>(
        duration);
    steady_ += duration;
    pause = real_pause_;
  }
  if (pause.count() > 0) {
    std::this_thread::sleep_for(pause);
  } else {
    std::this_thread::yield();
  }
  return cancel == nullptr || !cancel->IsCancelled();
}

void FakeClock::Advance(std::chrono::nanoseconds duration) {
  base::MutexLock lock(mu_);
  wall_ +=
      std::chrono::duration_cast<std::chrono::system_clock::duration>(duration);
  steady_ += duration;
}

std::vector<std::chrono::nanoseconds> FakeClock::sleeps() const {
  base::MutexLock lock(mu_);
  return sleeps_;
}

void FakeClock::set_real_pause(std::chrono::microseconds pause) {
  base::MutexLock lock(mu_);
  real_pause_ = pause;
}

}  // namespace gcushare::base
