#include "tests/peers/dra_kubelet/delay_queue.h"

#include <utility>
#include <vector>

namespace gcushare::peers::dra_kubelet {

DelayQueue::DelayQueue(base::Clock* clock, std::chrono::milliseconds poll)
    : clock_(clock), poll_(poll) {}

DelayQueue::~DelayQueue() { Stop(); }

void DelayQueue::Start() {
  base::MutexLock lock(mu_);
  if (thread_.joinable() || stopping_) return;
  thread_ = std::thread([this] { Loop(); });
}

void DelayQueue::Stop() {
  {
    base::MutexLock lock(mu_);
    stopping_ = true;
    entries_.clear();
  }
  wake_.NotifyAll();
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) {
    thread_.join();
  }
}

bool DelayQueue::AddIfAbsent(const std::string& key,
                             std::chrono::nanoseconds delay,
                             std::function<void()> action) {
  {
    base::MutexLock lock(mu_);
    if (stopping_ || entries_.count(key)) return false;
    entries_[key] = Entry{clock_->SteadyNow() + delay, std::move(action)};
  }
  wake_.NotifyAll();
  return true;
}

void DelayQueue::Replace(const std::string& key, std::chrono::nanoseconds delay,
                         std::function<void()> action) {
  {
    base::MutexLock lock(mu_);
    if (stopping_) return;
    entries_[key] = Entry{clock_->SteadyNow() + delay, std::move(action)};
  }
  wake_.NotifyAll();
}

bool DelayQueue::Cancel(const std::string& key) {
  base::MutexLock lock(mu_);
  return entries_.erase(key) > 0;
}

bool DelayQueue::Pending(const std::string& key) const {
  base::MutexLock lock(mu_);
  return entries_.count(key) > 0;
}

int DelayQueue::RunDue() {
  base::MutexLock run(run_mu_);
  int ran = 0;
  while (true) {
    std::function<void()> action;
    {
      base::MutexLock lock(mu_);
      if (stopping_) return ran;
      auto now = clock_->SteadyNow();
      auto next = entries_.end();
      for (auto it = entries_.begin(); it != entries_.end(); ++it) {
        if (it->second.due <= now &&
            (next == entries_.end() || it->second.due < next->second.due)) {
          next = it;
        }
      }
      if (next == entries_.end()) return ran;
      action = std::move(next->second.action);
      entries_.erase(next);
    }
    action();
    ++ran;
  }
}

void DelayQueue::Loop() {
  while (true) {
    {
      base::MutexLock lock(mu_);
      wake_.WaitFor(lock, poll_, [this]() REQUIRES(mu_) { return stopping_; });
      if (stopping_) return;
    }
    RunDue();
  }
}

}  // namespace gcushare::peers::dra_kubelet
