// A Clock for tests: time moves only when SleepFor() or Advance() is called,
// and every requested sleep is recorded so that tests can assert backoff and
// Retry-After values without sleeping.
//
// SleepFor() returns at once (after an optional real pause, off by default,
// that keeps retry loops from spinning hot while a test server is down).
//
// Thread-safety: every method may be called from any thread.
#ifndef GCUSHARE_BASE_TESTING_FAKE_CLOCK_H_
#define GCUSHARE_BASE_TESTING_FAKE_CLOCK_H_

#include <chrono>
#include <vector>

#include "base/clock.h"
#include "base/mutex.h"
#include "base/thread_annotations.h"

namespace gcushare::base {

class FakeClock : public Clock {
 public:
  FakeClock();

  std::chrono::system_clock::time_point Now() override;
  std::chrono::steady_clock::time_point SteadyNow() override;
  bool SleepFor(std::chrono::nanoseconds duration,
                Cancellation* cancel) override;

  // Moves both clocks forward.
  void Advance(std::chrono::nanoseconds duration);

  // Every duration passed to SleepFor, in call order.
  std::vector<std::chrono::nanoseconds> sleeps() const;

  // A real pause taken by each SleepFor (default zero).
  void set_real_pause(std::chrono::microseconds pause);

 private:
  mutable base::Mutex mu_;
  std::chrono::system_clock::time_point wall_ GUARDED_BY(mu_);
  std::chrono::steady_clock::time_point steady_ GUARDED_BY(mu_);
  std::vector<std::chrono::nanoseconds> sleeps_ GUARDED_BY(mu_);
  std::chrono::microseconds real_pause_ GUARDED_BY(mu_){0};
};

}  // namespace gcushare::base

#endif  // GCUSHARE_BASE_TESTING_FAKE_CLOCK_H_
