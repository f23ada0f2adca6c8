#include "base/cancellation.h"

#include <utility>

namespace gcushare::base {

void Cancellation::Cancel() {
  base::MutexLock lock(mu_);
  if (cancelled_.exchange(true)) return;
  // Wakers run under the lock, so RemoveWaker() can promise that a removed
  // waker is not running.
  for (auto& [id, waker] : wakers_) waker();
  cv_.NotifyAll();
}

bool Cancellation::WaitFor(std::chrono::nanoseconds timeout) {
  base::MutexLock lock(mu_);
  return cv_.WaitFor(lock, timeout, [this] { return cancelled_.load(); });
}

Cancellation::WakerId Cancellation::AddWaker(std::function<void()> waker) {
  base::MutexLock lock(mu_);
  if (cancelled_.load()) waker();
  WakerId id = next_id_++;
  wakers_.emplace(id, std::move(waker));
  return id;
}

void Cancellation::RemoveWaker(WakerId id) {
  base::MutexLock lock(mu_);
  wakers_.erase(id);
}

}  // namespace gcushare::base
