#include "placement/request_mix.h"

#include <algorithm>
#include <bit>

#include "base/mutex.h"

namespace gcushare::placement {
namespace {

// Cumulative shares from the top of `counts` (ascending keys) over `total`.
template <typename Key>
void Accumulate(const std::map<Key, uint64_t>& counts, double total,
                std::vector<Key>* keys, std::vector<double>* above) {
  double running = 0;
  for (auto it = counts.rbegin(); it != counts.rend(); ++it) {
    running += static_cast<double>(it->second) / total;
    keys->push_back(it->first);
    above->push_back(running);
  }
  std::reverse(keys->begin(), keys->end());
  std::reverse(above->begin(), above->end());
}

// `x` rounded up to a step of 1/64 of its power of two (bounds the number
// of distinct values kept).
int64_t Coarse(int64_t x) {
  if (x < 128) return std::max<int64_t>(x, 0);
  const int64_t step = std::bit_floor(static_cast<uint64_t>(x)) / 64;
  return (x + step - 1) / step * step;
}

}  // namespace

RequestMix::RequestMix(const std::map<uint64_t, uint64_t>& shared,
                       const std::map<uint32_t, uint64_t>& whole,
                       const std::map<int64_t, uint64_t>& cpu,
                       const std::map<int64_t, uint64_t>& memory)
    : RequestMix(shared, whole) {
  for (const auto& [value, count] : cpu) host_total_ += count;
  if (host_total_ == 0) return;
  const double total = static_cast<double>(host_total_);
  Accumulate(cpu, total, &cpu_, &cpu_above_);
  Accumulate(memory, total, &memory_, &memory_above_);
}

double RequestMix::ShareAbove(const std::vector<int64_t>& values,
                              const std::vector<double>& above, int64_t x) {
  auto it = std::upper_bound(values.begin(), values.end(), x);
  if (it == values.end()) return 0;
  return above[it - values.begin()];
}

double RequestMix::HostShortShare(const HostRequest& free) const {
  if (host_total_ == 0) return 0;
  return std::max(ShareAbove(cpu_, cpu_above_, free.cpu_milli),
                  ShareAbove(memory_, memory_above_, free.memory));
}

double RequestMix::HostFragment(uint64_t free_units,
                                const HostRequest& free) const {
  if (free_units == 0) return 0;
  return static_cast<double>(free_units) * HostShortShare(free);
}

RequestMix::RequestMix(const std::map<uint64_t, uint64_t>& shared,
                       const std::map<uint32_t, uint64_t>& whole) {
  for (const auto& [size, count] : shared) total_ += count;
  uint64_t whole_total = 0;
  for (const auto& [cards, count] : whole) whole_total += count;
  total_ += whole_total;
  if (total_ == 0) return;
  const double total = static_cast<double>(total_);
  double running = 0;
  for (auto it = shared.rbegin(); it != shared.rend(); ++it) {
    running += static_cast<double>(it->second) / total;
    sizes_.push_back(it->first);
    above_.push_back(running);
  }
  std::reverse(sizes_.begin(), sizes_.end());
  std::reverse(above_.begin(), above_.end());
  running = 0;
  for (auto it = whole.rbegin(); it != whole.rend(); ++it) {
    running += static_cast<double>(it->second) / total;
    counts_.push_back(it->first);
    whole_above_.push_back(running);
  }
  std::reverse(counts_.begin(), counts_.end());
  std::reverse(whole_above_.begin(), whole_above_.end());
  whole_share_ = static_cast<double>(whole_total) / total;
  if (!sizes_.empty() && sizes_.back() <= kTabulated) {
    shared_fragment_.resize(sizes_.back());
    for (uint64_t free = 0; free < sizes_.back(); ++free) {
      shared_fragment_[free] = SharedFragmentOf(free);
    }
  }
}

double RequestMix::SharedFragmentOf(uint64_t free) const {
  // Sizes larger than `free` cannot use it.
  auto it = std::upper_bound(sizes_.begin(), sizes_.end(), free);
  if (it == sizes_.end()) return 0;
  return static_cast<double>(free) * above_[it - sizes_.begin()];
}

double RequestMix::WholeFragment(uint64_t partial_free, uint32_t untouched,
                                 uint64_t untouched_free) const {
  double fragment = whole_share_ * static_cast<double>(partial_free);
  auto it = std::upper_bound(counts_.begin(), counts_.end(), untouched);
  if (it != counts_.end()) {
    fragment += static_cast<double>(untouched_free) *
                whole_above_[it - counts_.begin()];
  }
  return fragment;
}

void RequestHistory::Record(uint64_t memory_units, uint32_t cards,
                            const HostRequest* host) {
  base::MutexLock lock(mu_);
  if (memory_units > 0) {
    ++shared_[memory_units];
  } else if (cards > 0) {
    ++whole_[cards];
  } else {
    return;
  }
  if (host != nullptr) {
    ++cpu_[Coarse(host->cpu_milli)];
    ++memory_[Coarse(host->memory)];
  }
  ++total_;
  // A new mix only once the counts moved by a 32nd since the last one: a
  // mix shifts by at most about that much, and every new mix starts the
  // verdict memo afresh (extender/verdict_memo.h).
  if ((total_ - published_total_) * kRepublishShare > published_total_) {
    mix_.reset();
  }
}

std::shared_ptr<const RequestMix> RequestHistory::Mix() const {
  base::MutexLock lock(mu_);
  if (!mix_) {
    mix_ = std::make_shared<const RequestMix>(shared_, whole_, cpu_, memory_);
    published_total_ = total_;
  }
  return mix_;
}

}  // namespace gcushare::placement
