// Exponential backoff with jitter, shared by the HTTP retry policy and the
// informer's re-list/re-watch loop.
//
// The n-th delay (n from 0) is min(max, initial * multiplier^n), stretched
// by a random factor in [1, 1 + jitter). Reset() starts over.
//
// Thread-safety: not thread-safe; one Backoff per retry loop.
#ifndef GCUSHARE_BASE_BACKOFF_H_
#define GCUSHARE_BASE_BACKOFF_H_

#include <chrono>
#include <cstdint>
#include <optional>
#include <random>

namespace gcushare::base {

struct BackoffOptions {
  std::chrono::milliseconds initial{200};
  std::chrono::milliseconds max{30000};
  double multiplier = 2.0;
  double jitter = 0.2;  // 0 gives exact, repeatable delays.
};

class Backoff {
 public:
  // `seed` 0 seeds from std::random_device. The engine is made (and
  // seeded) by the first jittered Next(), so a retry loop that never
  // retries costs no random_device read and no engine set-up.
  explicit Backoff(const BackoffOptions& options, uint64_t seed = 0);

  std::chrono::nanoseconds Next();
  void Reset() { attempt_ = 0; }
  int attempt() const { return attempt_; }

 private:
  BackoffOptions options_;
  int attempt_ = 0;
  uint64_t seed_;
  std::optional<std::mt19937_64> random_;  // Made by the first Next().
};

}  // namespace gcushare::base

#endif  // GCUSHARE_BASE_BACKOFF_H_
