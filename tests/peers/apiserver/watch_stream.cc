#include "tests/peers/apiserver/watch_stream.h"

#include <utility>

namespace gcushare::apiserver {

std::string EncodeWatchEvent(std::string_view type,
                             std::string_view object_json) {
  std::string line;
  line.reserve(object_json.size() + type.size() + 24);
  line += "{\"type\":\"";
  line += type;
  line += "\",\"object\":";
  line += object_json;
  line += "}\n";
  return line;
}

void WatchStream::Push(std::string line) {
  {
    base::MutexLock lock(mu_);
    if (closed_) return;
    if (lines_.size() >= capacity_) {
      closed_ = true;
    } else {
      lines_.push_back(std::move(line));
    }
  }
  cv_.NotifyAll();
}

WatchStream::PopResult WatchStream::PopAll(
    std::chrono::steady_clock::time_point deadline,
    std::vector<std::string>* out) {
  base::MutexLock lock(mu_);
  cv_.WaitUntil(lock, deadline,
                [this]() REQUIRES(mu_) { return !lines_.empty() || closed_; });
  if (!lines_.empty()) {
    for (std::string& line : lines_) out->push_back(std::move(line));
    lines_.clear();
    return PopResult::kLines;
  }
  return closed_ ? PopResult::kClosed : PopResult::kTimeout;
}

void WatchStream::Close() {
  {
    base::MutexLock lock(mu_);
    closed_ = true;
  }
  cv_.NotifyAll();
}

bool WatchStream::closed() const {
  base::MutexLock lock(mu_);
  return closed_;
}

bool WatchStream::empty() const {
  base::MutexLock lock(mu_);
  return lines_.empty();
}

}  // namespace gcushare::apiserver
