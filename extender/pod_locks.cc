#include "extender/pod_locks.h"

#include <utility>

#include "base/mutex.h"

namespace gcushare::extender {

PodLocks::Guard::Guard(PodLocks* owner, std::string key)
    : owner_(owner), key_(std::move(key)) {}

PodLocks::Guard::Guard(Guard&& other) noexcept
    : owner_(std::exchange(other.owner_, nullptr)),
      key_(std::move(other.key_)) {}

PodLocks::Guard::~Guard() {
  if (owner_ != nullptr) owner_->Release(key_);
}

PodLocks::Guard PodLocks::Lock(const std::string& key) {
  Entry* entry;
  {
    base::MutexLock lock(mu_);
    std::unique_ptr<Entry>& slot = entries_[key];
    if (!slot) slot = std::make_unique<Entry>();
    ++slot->users;
    entry = slot.get();  // Stays alive while users > 0.
  }
  entry->mu.lock();
  return Guard(this, key);
}

size_t PodLocks::Users(const std::string& key) const {
  base::MutexLock lock(mu_);
  auto it = entries_.find(key);
  return it == entries_.end() ? 0 : it->second->users;
}

void PodLocks::Release(const std::string& key) {
  base::MutexLock lock(mu_);
  auto it = entries_.find(key);
  if (it == entries_.end()) return;
  it->second->mu.unlock();
  if (--it->second->users == 0) entries_.erase(it);
}

}  // namespace gcushare::extender
