#include "efml/health_monitor.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <utility>

#include "base/guarded_thread.h"
#include "base/mutex.h"
#include "base/thread_annotations.h"

namespace gcushare::efml {
namespace {

// Merges a fresh discovery into the last inventory: cards that vanished are
// kept, unhealthy. Appends to `changed` the indexes whose card differs.
Inventory Merge(const Inventory& last, Inventory fresh,
                std::vector<uint32_t>& changed) {
  std::map<uint32_t, Card> merged;
  for (Card& card : fresh.cards) merged.emplace(card.index, std::move(card));
  for (const Card& old_card : last.cards) {
    auto it = merged.find(old_card.index);
    if (it == merged.end()) {
      Card vanished = old_card;
      vanished.healthy = false;
      merged.emplace(old_card.index, std::move(vanished));
    }
  }
  std::map<uint32_t, const Card*> old_by_index;
  for (const Card& card : last.cards) old_by_index[card.index] = &card;

  Inventory result;
  result.control_nodes = std::move(fresh.control_nodes);
  for (auto& [index, card] : merged) {
    auto old = old_by_index.find(index);
    if (old == old_by_index.end() || !(*old->second == card)) {
      changed.push_back(index);
    }
    result.cards.push_back(std::move(card));
  }
  return result;
}

}  // namespace

HealthMonitor::HealthMonitor(CardSource& source, Inventory initial)
    : source_(source), inventory_(std::move(initial)) {}

HealthMonitor::~HealthMonitor() { Stop(); }

HealthMonitor::SubscriptionId HealthMonitor::Subscribe(Callback callback) {
  base::MutexLock lock(mutex_);
  SubscriptionId id = next_id_++;
  subscribers_.emplace(id, std::move(callback));
  return id;
}

void HealthMonitor::Unsubscribe(SubscriptionId id) {
  base::MutexLock lock(mutex_);
  subscribers_.erase(id);
}

Inventory HealthMonitor::Current() const {
  base::MutexLock lock(mutex_);
  return inventory_;
}

void HealthMonitor::PollOnce() {
  base::MutexLock poll_lock(poll_mutex_);
  StatusOr<Inventory> discovered = source_.Discover();
  if (!discovered.ok()) {
    std::string error = discovered.status().ToString();
    if (error != last_error_) {
      spdlog::warn("card discovery ({}) failed, keeping the last state: {}",
                   source_.Name(), error);
      last_error_ = std::move(error);
    }
    return;
  }
  if (!last_error_.empty()) {
    spdlog::info("card discovery ({}) works again", source_.Name());
    last_error_.clear();
  }

  std::vector<uint32_t> changed;
  Inventory snapshot;
  std::vector<Callback> callbacks;
  {
    base::MutexLock lock(mutex_);
    Inventory merged = Merge(inventory_, std::move(*discovered), changed);
    if (merged == inventory_) return;
    inventory_ = std::move(merged);
    snapshot = inventory_;
    for (const auto& [id, callback] : subscribers_) {
      callbacks.push_back(callback);
    }
  }
  for (uint32_t index : changed) {
    auto card =
        std::find_if(snapshot.cards.begin(), snapshot.cards.end(),
                     [index](const Card& c) { return c.index == index; });
    spdlog::info("card {} ({}) is now {}", index, card->uuid,
                 card->healthy ? "healthy" : "unhealthy");
  }
  for (const Callback& callback : callbacks) callback(snapshot, changed);
}

void HealthMonitor::Start(std::chrono::milliseconds interval) {
  base::MutexLock thread_lock(thread_mutex_);
  if (thread_.joinable()) return;
  {
    base::MutexLock lock(mutex_);
    stop_requested_ = false;
  }
  thread_ = base::StartGuardedThread("card health",
                                     [this, interval] { Run(interval); });
}

void HealthMonitor::Stop() {
  base::MutexLock thread_lock(thread_mutex_);
  if (!thread_.joinable()) return;
  {
    base::MutexLock lock(mutex_);
    stop_requested_ = true;
  }
  wake_.NotifyAll();
  thread_.join();
}

void HealthMonitor::Run(std::chrono::milliseconds interval) {
  while (true) {
    {
      base::MutexLock lock(mutex_);
      if (wake_.WaitFor(lock, interval, [this]() REQUIRES(mutex_) {
            return stop_requested_;
          })) {
        return;
      }
    }
    PollOnce();
  }
}

}  // namespace gcushare::efml
