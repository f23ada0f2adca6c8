#include "tests/peers/apiserver/list_cost.h"

#include <algorithm>
#include <thread>
#include <utility>

namespace gcushare::apiserver {

const char* ListSourceName(ListSource source) {
  return source == ListSource::kWatchCache ? "watch cache" : "etcd";
}

ListSource ListSourceOf(const std::string& resource_version,
                        const std::string& resource_version_match,
                        int64_t limit, bool has_continue) {
  const bool consistent = resource_version.empty();
  const bool limited = limit > 0 && resource_version != "0";
  const bool unsupported_match = !resource_version_match.empty() &&
                                 resource_version_match != "NotOlderThan";
  if (consistent || has_continue || limited || unsupported_match) {
    return ListSource::kEtcd;
  }
  return ListSource::kWatchCache;
}

ListCostOptions KubeApiserver126() {
  ListCostOptions options;
  options.etcd_ms_per_request = 13;
  options.etcd_ms_per_mb = 16;
  options.cache_ms_per_request = 0;
  options.cache_ms_per_mb = 12;
  options.concurrency = 2;
  return options;
}

ListCost::ListCost(ListCostOptions options, Sleep sleep)
    : options_(std::move(options)), sleep_(std::move(sleep)) {}

std::chrono::nanoseconds ListCost::CostOf(ListSource source,
                                          size_t bytes) const {
  const bool cache = source == ListSource::kWatchCache;
  const double per_request =
      cache ? options_.cache_ms_per_request : options_.etcd_ms_per_request;
  const double per_mb =
      cache ? options_.cache_ms_per_mb : options_.etcd_ms_per_mb;
  const double ms = per_request + per_mb * static_cast<double>(bytes) / 1e6;
  return std::chrono::nanoseconds(static_cast<int64_t>(ms * 1e6));
}

void ListCost::Charge(ListSource source, size_t bytes,
                      std::chrono::nanoseconds spent) {
  const std::chrono::nanoseconds cost = CostOf(source, bytes) - spent;
  base::MutexLock lock(mu_);
  Counts& counts = counts_[static_cast<int>(source)];
  ++counts.requests;
  counts.bytes += bytes;
  if (cost.count() <= 0) {
    last_answer_ = std::max(last_answer_, std::chrono::steady_clock::now());
    return;
  }
  const int slots = std::max(1, options_.concurrency);
  slot_cv_.Wait(lock, [this, slots]() REQUIRES(mu_) { return busy_ < slots; });
  ++busy_;
  lock.Unlock();
  if (sleep_) {
    sleep_(cost);
  } else {
    std::this_thread::sleep_for(cost);
  }
  lock.Lock();
  --busy_;
  last_answer_ = std::max(last_answer_, std::chrono::steady_clock::now());
  lock.Unlock();
  slot_cv_.NotifyOne();
}

ListCost::Counts ListCost::counts(ListSource source) const {
  base::MutexLock lock(mu_);
  return counts_[static_cast<int>(source)];
}

std::chrono::steady_clock::time_point ListCost::last_answer() const {
  base::MutexLock lock(mu_);
  return last_answer_;
}

}  // namespace gcushare::apiserver
