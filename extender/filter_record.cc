#include "extender/filter_record.h"

#include "base/mutex.h"

namespace gcushare::extender {

FilterRecord::FilterRecord(base::Clock* clock, size_t capacity,
                           std::chrono::seconds ttl)
    : clock_(clock), capacity_(capacity == 0 ? 1 : capacity), ttl_(ttl) {}

void FilterRecord::Record(const std::string& uid,
                          const std::vector<std::string>& nodes) {
  if (uid.empty()) return;
  const auto now = clock_->SteadyNow();
  base::MutexLock lock(mu_);
  auto [it, inserted] = by_uid_.try_emplace(uid);
  if (!inserted) {
    auto range = by_time_.equal_range(it->second.at);
    for (auto t = range.first; t != range.second; ++t) {
      if (t->second == uid) {
        by_time_.erase(t);
        break;
      }
    }
  }
  it->second.at = now;
  it->second.nodes = {nodes.begin(), nodes.end()};
  by_time_.emplace(now, uid);
  TrimLocked(now);
}

bool FilterRecord::Passed(std::string_view uid, std::string_view node) const {
  const auto now = clock_->SteadyNow();
  base::MutexLock lock(mu_);
  auto it = by_uid_.find(uid);
  if (it == by_uid_.end() || now - it->second.at > ttl_) return false;
  return it->second.nodes.count(node) > 0;
}

size_t FilterRecord::size() const {
  base::MutexLock lock(mu_);
  return by_uid_.size();
}

void FilterRecord::TrimLocked(std::chrono::steady_clock::time_point now) {
  while (!by_time_.empty() &&
         (by_uid_.size() > capacity_ || now - by_time_.begin()->first > ttl_)) {
    by_uid_.erase(by_time_.begin()->second);
    by_time_.erase(by_time_.begin());
  }
}

}  // namespace gcushare::extender
