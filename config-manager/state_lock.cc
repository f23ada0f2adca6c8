#include "config-manager/state_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace gcushare::config_manager {

StateLock::~StateLock() {
  if (fd_ >= 0) ::close(fd_);  // Closing the descriptor releases the lock.
}

StateLock::StateLock(StateLock&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)) {}

StateLock& StateLock::operator=(StateLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

StatusOr<StateLock> StateLock::Acquire(const std::string& path) {
  return Take(path, /*wait=*/true);
}

StatusOr<StateLock> StateLock::TryAcquire(const std::string& path) {
  return Take(path, /*wait=*/false);
}

StatusOr<StateLock> StateLock::Take(const std::string& path, bool wait) {
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) {
    return UnavailableError("cannot open lock file " + path + ": " +
                            std::strerror(errno));
  }
  StateLock lock(fd);
  int rc;
  do {
    rc = ::flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB));
  } while (rc != 0 && errno == EINTR);
  if (rc != 0) {
    return UnavailableError(
        (errno == EWOULDBLOCK
             ? "lock file " + path + " is held by another process"
             : "cannot lock " + path + ": " + std::strerror(errno)));
  }
  return lock;
}

}  // namespace gcushare::config_manager
