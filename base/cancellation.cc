#include "base/cancellation.h"

#include <utility>

namespace gcushare::base {

void Cancellation::Cancel() {
  std::lock_guard<std::mutex> lock(mu_);
  if (cancelled_.exchange(true)) return;
  // Wakers run under the lock, so RemoveWaker() can promise that a removed
  // waker is not running.
  for (auto& [id, waker] : wakers_) waker();
  cv_.notify_all();
}

bool Cancellation::WaitFor(std::chrono::nanoseconds timeout) {
  std::unique_lock<std::mutex> lock(mu_);
  return cv_.wait_for(lock, timeout, [this] { return cancelled_.load(); });
}

Cancellation::WakerId Cancellation::AddWaker(std::function<void()> waker) {
  std::lock_guard<std::mutex> lock(mu_);
  if (cancelled_.load()) waker();
  WakerId id = next_id_++;
  wakers_.emplace(id, std::move(waker));
  return id;
}

void Cancellation::RemoveWaker(WakerId id) {
  std::lock_guard<std::mutex> lock(mu_);
  wakers_.erase(id);
}

}  // namespace gcushare::base
