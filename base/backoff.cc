#include "base/backoff.h"

#include <algorithm>
#include <cmath>

namespace gcushare::base {

Backoff::Backoff(const BackoffOptions& options, uint64_t seed)
    : options_(options), seed_(seed) {}

std::chrono::nanoseconds Backoff::Next() {
  const double initial_ns =
      std::chrono::duration<double, std::nano>(options_.initial).count();
  const double max_ns =
      std::chrono::duration<double, std::nano>(options_.max).count();
  // Cap the exponent so that the power cannot overflow.
  const int exponent = std::min(attempt_, 62);
  double delay = std::min(
      max_ns,
      initial_ns * std::pow(std::max(1.0, options_.multiplier), exponent));
  ++attempt_;
  if (options_.jitter > 0) {
    if (!random_.has_value()) {
      random_.emplace(seed_ != 0 ? seed_ : std::random_device{}());
    }
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    delay *= 1.0 + options_.jitter * unit(*random_);
  }
  return std::chrono::nanoseconds(static_cast<int64_t>(delay));
}

}  // namespace gcushare::base
