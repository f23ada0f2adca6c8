#include "base/clock.h"

#include <thread>

namespace gcushare::base {

std::chrono::system_clock::time_point RealClock::Now() {
  return std::chrono::system_clock::now();
}

std::chrono::steady_clock::time_point RealClock::SteadyNow() {
  return std::chrono::steady_clock::now();
}

bool RealClock::SleepFor(std::chrono::nanoseconds duration,
                         Cancellation* cancel) {
  if (cancel == nullptr) {
    std::this_thread::sleep_for(duration);
    return true;
  }
  return !cancel->WaitFor(duration);
}

}  // namespace gcushare::base
