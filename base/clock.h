// Time for the Kubernetes client: the wall clock (event timestamps), a
// monotonic clock (token re-read intervals) and sleeping (retry and
// informer backoff). Injected everywhere so that tests never sleep for real:
// see FakeClock (base/testing/fake_clock.h).
//
// Thread-safety: implementations are safe to call from any thread.
#ifndef GCUSHARE_BASE_CLOCK_H_
#define GCUSHARE_BASE_CLOCK_H_

#include <chrono>

#include "base/cancellation.h"

namespace gcushare::base {

class Clock {
 public:
  virtual ~Clock() = default;

  // Wall-clock time, for timestamps written into objects.
  virtual std::chrono::system_clock::time_point Now() = 0;

  // Monotonic time, for measuring intervals.
  virtual std::chrono::steady_clock::time_point SteadyNow() = 0;

  // Sleeps for `duration`, or less when `cancel` (may be null) is cancelled
  // first. Returns false when cut short by cancellation.
  virtual bool SleepFor(std::chrono::nanoseconds duration,
                        Cancellation* cancel) = 0;
};

// The system clocks; sleeping waits on `cancel` so that it ends promptly on
// cancellation.
class RealClock : public Clock {
 public:
  std::chrono::system_clock::time_point Now() override;
  std::chrono::steady_clock::time_point SteadyNow() override;
  bool SleepFor(std::chrono::nanoseconds duration,
                Cancellation* cancel) override;
};

}  // namespace gcushare::base

#endif  // GCUSHARE_BASE_CLOCK_H_
