#include "kube/token_source.h"

#include <spdlog/spdlog.h>

#include <cerrno>
#include <fstream>
#include <sstream>
#include <utility>

#include "base/mutex.h"

namespace gcushare::kube {

FileTokenSource::FileTokenSource(std::string path, base::Clock* clock,
                                 std::chrono::seconds refresh_interval,
                                 std::string fallback)
    : path_(std::move(path)),
      clock_(clock),
      refresh_interval_(refresh_interval),
      token_(std::move(fallback)) {}

Status FileTokenSource::ReadLocked() {
  last_read_ = clock_->SteadyNow();
  std::ifstream in(path_, std::ios::binary);
  if (!in) return ErrnoToStatus(errno, "token file " + path_);
  std::ostringstream contents;
  contents << in.rdbuf();
  std::string token = contents.str();
  const auto end = token.find_last_not_of(" \t\r\n");
  token.erase(end == std::string::npos ? 0 : end + 1);
  const auto begin = token.find_first_not_of(" \t\r\n");
  token.erase(0, begin == std::string::npos ? token.size() : begin);
  if (token.empty()) {
    return UnauthenticatedError("token file " + path_ + " is empty");
  }
  token_ = std::move(token);
  return OkStatus();
}

StatusOr<std::string> FileTokenSource::Token() {
  base::MutexLock lock(mu_);
  if (!last_read_.has_value() ||
      clock_->SteadyNow() - *last_read_ >= refresh_interval_) {
    Status read = ReadLocked();
    if (!read.ok()) {
      if (token_.empty()) return read;
      spdlog::warn("{}; keeping the previous token", read.message());
    }
  }
  return token_;
}

bool FileTokenSource::Refresh() {
  base::MutexLock lock(mu_);
  const std::string before = token_;
  Status read = ReadLocked();
  if (!read.ok()) spdlog::warn("{}", read.message());
  return token_ != before;
}

}  // namespace gcushare::kube
