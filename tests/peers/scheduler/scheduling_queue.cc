#include "tests/peers/scheduler/scheduling_queue.h"

#include <utility>

namespace gcushare::scheduler {

void SchedulingQueue::PushLocked(std::string key) {
  parked_.erase(key);
  if (active_set_.insert(key).second) {
    active_.push_back(std::move(key));
    cv_.NotifyOne();
  }
}

void SchedulingQueue::Add(const std::string& key, bool changed) {
  base::MutexLock lock(mu_);
  if (in_flight_ == key) {
    if (changed) {
      requeue_in_flight_ = true;
      removed_in_flight_ = false;
    }
    return;
  }
  if (!changed && parked_.count(key) != 0) return;
  PushLocked(key);
}

void SchedulingQueue::Remove(const std::string& key) {
  base::MutexLock lock(mu_);
  parked_.erase(key);
  if (active_set_.erase(key) != 0) {
    for (auto it = active_.begin(); it != active_.end(); ++it) {
      if (*it == key) {
        active_.erase(it);
        break;
      }
    }
  }
  if (in_flight_ == key) {
    requeue_in_flight_ = false;
    removed_in_flight_ = true;
  }
}

void SchedulingQueue::MoveAllToActive() {
  base::MutexLock lock(mu_);
  while (!parked_.empty()) PushLocked(parked_.begin()->first);
  if (in_flight_.has_value()) requeue_in_flight_ = true;
}

void SchedulingQueue::FlushParked(TimePoint now,
                                  std::chrono::nanoseconds max_parked) {
  base::MutexLock lock(mu_);
  for (auto it = parked_.begin(); it != parked_.end();) {
    const std::string key = it->first;
    const bool expired = now - it->second >= max_parked;
    ++it;
    if (expired) PushLocked(key);
  }
}

std::optional<std::string> SchedulingQueue::Pop(
    std::chrono::milliseconds wait) {
  base::MutexLock lock(mu_);
  cv_.WaitFor(lock, wait,
              [this]() REQUIRES(mu_) { return shutdown_ || !active_.empty(); });
  if (shutdown_ || active_.empty()) return std::nullopt;
  std::string key = active_.front();
  active_.pop_front();
  active_set_.erase(key);
  in_flight_ = key;
  requeue_in_flight_ = false;
  removed_in_flight_ = false;
  return key;
}

void SchedulingQueue::Done(const std::string& key, bool bound, TimePoint now) {
  base::MutexLock lock(mu_);
  if (in_flight_ != key) return;
  in_flight_.reset();
  const bool requeue = requeue_in_flight_;
  requeue_in_flight_ = false;
  if (bound || removed_in_flight_) return;
  if (requeue) {
    PushLocked(key);
  } else {
    parked_[key] = now;
  }
}

void SchedulingQueue::Shutdown() {
  base::MutexLock lock(mu_);
  shutdown_ = true;
  cv_.NotifyAll();
}

size_t SchedulingQueue::active() const {
  base::MutexLock lock(mu_);
  return active_.size();
}

size_t SchedulingQueue::parked() const {
  base::MutexLock lock(mu_);
  return parked_.size();
}

}  // namespace gcushare::scheduler
