#include "kube/background_queue.h"

#include <spdlog/spdlog.h>

#include <utility>

#include "base/guarded_thread.h"
#include "base/mutex.h"
#include "base/thread_annotations.h"

namespace gcushare::kube {

BackgroundQueue::BackgroundQueue(base::Clock* clock,
                                 BackgroundQueueOptions options)
    : clock_(clock), options_(std::move(options)) {}

BackgroundQueue::~BackgroundQueue() { Stop(); }

void BackgroundQueue::Start() {
  if (thread_.joinable()) return;
  thread_ = base::StartGuardedThread("background queue", [this] { Run(); });
}

void BackgroundQueue::Stop() {
  {
    base::MutexLock lock(mu_);
    stop_ = true;
    if (wake_ != nullptr) wake_->Cancel();
  }
  cv_.NotifyAll();
  if (thread_.joinable()) thread_.join();
  base::MutexLock lock(mu_);
  queue_.clear();
  active_.clear();
  idle_cv_.NotifyAll();
}

bool BackgroundQueue::Add(const std::string& key, Work work) {
  {
    base::MutexLock lock(mu_);
    if (stop_ || active_.count(key) > 0 || finished_.count(key) > 0) {
      return false;
    }
    if (active_.size() >= options_.capacity) {
      ++dropped_;
      spdlog::warn(
          "{}: {} items pending (the API server is slow or gone): dropped "
          "{} ({} dropped so far)",
          options_.name, active_.size(), key, dropped_);
      return false;
    }
    active_.insert(key);
    queue_.push_back({key, std::move(work)});
    if (wake_ != nullptr) wake_->Cancel();  // New work before retries.
  }
  cv_.NotifyAll();
  return true;
}

size_t BackgroundQueue::pending() const {
  base::MutexLock lock(mu_);
  return active_.size();
}

uint64_t BackgroundQueue::dropped() const {
  base::MutexLock lock(mu_);
  return dropped_;
}

bool BackgroundQueue::WaitIdle(std::chrono::milliseconds timeout) {
  base::MutexLock lock(mu_);
  return idle_cv_.WaitFor(lock, timeout,
                          [this]() REQUIRES(mu_) { return active_.empty(); });
}

void BackgroundQueue::Finish(const std::string& key) {
  active_.erase(key);
  if (finished_.insert(key).second) {
    finished_order_.push_back(key);
    if (finished_order_.size() > options_.remembered) {
      finished_.erase(finished_order_.front());
      finished_order_.pop_front();
    }
  }
  if (active_.empty()) idle_cv_.NotifyAll();
}

std::vector<BackgroundQueue::Item> BackgroundQueue::RunRound(
    std::vector<Item> items) {
  std::vector<Item> again;
  for (Item& item : items) {
    const Outcome outcome = item.work();  // No lock held: it does I/O.
    if (outcome == Outcome::kRetry) {
      again.push_back(std::move(item));
      continue;
    }
    base::MutexLock lock(mu_);
    Finish(item.key);
  }
  return again;
}

void BackgroundQueue::Run() {
  base::Backoff backoff(options_.retry);
  std::vector<Item> retry;  // Worker thread only.
  // When the set-aside items are due, if retry_armed. Not an optional:
  // gcc 12 at -O2 took reading one for a read of uninitialized memory
  // (-Wmaybe-uninitialized, a false positive).
  bool retry_armed = false;
  std::chrono::steady_clock::time_point retry_at;
  for (;;) {
    std::vector<Item> round;
    {
      base::MutexLock lock(mu_);
      if (retry.empty()) {
        cv_.Wait(lock,
                 [this]() REQUIRES(mu_) { return stop_ || !queue_.empty(); });
      }
      if (stop_) return;
      for (Item& item : queue_) round.push_back(std::move(item));
      queue_.clear();
    }
    if (!retry.empty()) {
      const auto now = clock_->SteadyNow();
      if (!retry_armed) {
        retry_at = now + backoff.Next();
        retry_armed = true;
      }
      if (now >= retry_at) {
        // Due: every set-aside item once more, after any new work.
        for (Item& item : retry) round.push_back(std::move(item));
        retry.clear();
        retry_armed = false;
      } else if (round.empty()) {
        std::shared_ptr<base::Cancellation> wake;
        {
          base::MutexLock lock(mu_);
          if (stop_) return;
          if (!queue_.empty()) continue;
          wake_ = std::make_shared<base::Cancellation>();
          wake = wake_;
        }
        clock_->SleepFor(retry_at - now, wake.get());
        base::MutexLock lock(mu_);
        wake_.reset();
        continue;
      }
    }
    std::vector<Item> again = RunRound(std::move(round));
    for (Item& item : again) retry.push_back(std::move(item));
    if (retry.empty()) {
      backoff.Reset();
      retry_armed = false;
    }
  }
}

}  // namespace gcushare::kube
