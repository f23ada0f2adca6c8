// A base::Clock whose sleeps can be held: while the gate is closed, every
// SleepFor() blocks (until the gate opens or its Cancellation fires) before
// sleeping for real. A test closes the gate to keep an informer parked in its
// backoff between two watches, makes changes on the server meanwhile, and
// opens the gate to let it continue: the gap is exact, with no timing
// guesses. Now() and SteadyNow() are the real clocks.
//
// Thread-safety: every method may be called from any thread.
#ifndef GCUSHARE_TESTS_KUBE_CLIENT_GATED_CLOCK_H_
#define GCUSHARE_TESTS_KUBE_CLIENT_GATED_CLOCK_H_

#include <chrono>
#include <cstddef>

#include "base/cancellation.h"
#include "base/clock.h"
#include "base/mutex.h"

namespace gcushare::kube_client_test {

class GatedClock : public base::Clock {
 public:
  // Starts open.
  GatedClock() = default;

  std::chrono::system_clock::time_point Now() override;
  std::chrono::steady_clock::time_point SteadyNow() override;
  bool SleepFor(std::chrono::nanoseconds duration,
                base::Cancellation* cancel) override EXCLUDES(mu_);

  void Close() EXCLUDES(mu_);
  void Open() EXCLUDES(mu_);
  // Waits (real time) until at least `count` sleeps are held at the closed
  // gate; false on timeout.
  bool WaitForHeldSleeps(size_t count, std::chrono::milliseconds timeout)
      EXCLUDES(mu_);

 private:
  base::RealClock real_;
  base::Mutex mu_;
  base::CondVar cv_;
  bool open_ GUARDED_BY(mu_) = true;
  size_t held_ GUARDED_BY(mu_) = 0;
};

}  // namespace gcushare::kube_client_test

#endif  // GCUSHARE_TESTS_KUBE_CLIENT_GATED_CLOCK_H_
