#include "tests/peers/nri_runtime/socket.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace gcushare::nri_runtime {

Fd& Fd::operator=(Fd&& other) noexcept {
  if (this != &other) Reset(other.Release());
  return *this;
}

int Fd::Release() {
  int fd = fd_;
  fd_ = -1;
  return fd;
}

void Fd::Reset(int fd) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = fd;
}

StatusOr<Fd> ListenOn(const std::string& path) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.empty() || path.size() >= sizeof(addr.sun_path)) {
    return InvalidArgumentError("socket path \"" + path +
                                "\" is empty or too long for sun_path");
  }
  std::memcpy(addr.sun_path, path.data(), path.size());
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0) {
    if (!S_ISSOCK(st.st_mode)) {
      return FailedPreconditionError(path + " exists and is not a socket");
    }
    ::unlink(path.c_str());
  }
  Fd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!fd.valid()) return ErrnoToStatus(errno, "socket");
  if (::bind(fd.get(), reinterpret_cast<const sockaddr*>(&addr),
             sizeof(addr)) != 0) {
    return ErrnoToStatus(errno, "bind " + path);
  }
  if (::listen(fd.get(), 16) != 0) {
    return ErrnoToStatus(errno, "listen " + path);
  }
  return fd;
}

StatusOr<Fd> AcceptOn(int listener, std::chrono::milliseconds timeout) {
  pollfd p{listener, POLLIN, 0};
  int rc;
  do {
    rc = ::poll(&p, 1, static_cast<int>(timeout.count()));
  } while (rc < 0 && errno == EINTR);
  if (rc < 0) return ErrnoToStatus(errno, "poll");
  if (rc == 0) return DeadlineExceededError("no plugin connected in time");
  Fd fd(::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC));
  if (!fd.valid()) return ErrnoToStatus(errno, "accept");
  return fd;
}

Status SendAll(int fd, std::string_view bytes,
               std::chrono::milliseconds timeout) {
  size_t sent = 0;
  while (sent < bytes.size()) {
    ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent,
                       MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      sent += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      pollfd p{fd, POLLOUT, 0};
      int rc = ::poll(&p, 1, static_cast<int>(timeout.count()));
      if (rc < 0 && errno == EINTR) continue;
      if (rc == 0) return UnavailableError("plugin stopped reading");
      if (rc < 0) return ErrnoToStatus(errno, "poll");
      continue;
    }
    return UnavailableError(std::string("send: ") +
                            (n < 0 ? std::strerror(errno) : "closed"));
  }
  return OkStatus();
}

}  // namespace gcushare::nri_runtime
