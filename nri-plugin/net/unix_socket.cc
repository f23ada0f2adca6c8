#include "nri-plugin/net/unix_socket.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace gcushare::nri {
namespace {

StatusOr<sockaddr_un> Address(const std::string& path) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.empty() || path.size() >= sizeof(addr.sun_path)) {
    return InvalidArgumentError(
        "unix socket path \"" + path + "\" is empty or longer than " +
        std::to_string(sizeof(addr.sun_path) - 1) + " bytes");
  }
  std::memcpy(addr.sun_path, path.data(), path.size());
  return addr;
}

}  // namespace

UniqueFd& UniqueFd::operator=(UniqueFd&& other) noexcept {
  if (this != &other) Reset(other.Release());
  return *this;
}

void UniqueFd::Reset(int fd) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = fd;
}

StatusOr<UniqueFd> ConnectUnix(const std::string& path) {
  GCUSHARE_ASSIGN_OR_RETURN(sockaddr_un addr, Address(path));
  UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!fd.valid()) return ErrnoToStatus(errno, "socket");
  int rc;
  do {
    rc = ::connect(fd.get(), reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
  } while (rc != 0 && errno == EINTR);
  if (rc != 0) {
    int err = errno;
    if (err == ECONNREFUSED) {
      return UnavailableError("connect " + path + ": nobody listens");
    }
    return ErrnoToStatus(err, "connect " + path);
  }
  return fd;
}

StatusOr<UniqueFd> ListenUnix(const std::string& path) {
  GCUSHARE_ASSIGN_OR_RETURN(sockaddr_un addr, Address(path));
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0) {
    if (!S_ISSOCK(st.st_mode)) {
      return FailedPreconditionError(path + " exists and is not a socket");
    }
    ::unlink(path.c_str());
  }
  UniqueFd fd(::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!fd.valid()) return ErrnoToStatus(errno, "socket");
  if (::bind(fd.get(), reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    return ErrnoToStatus(errno, "bind " + path);
  }
  if (::listen(fd.get(), 16) != 0) {
    return ErrnoToStatus(errno, "listen " + path);
  }
  return fd;
}

StatusOr<UniqueFd> AcceptUnix(int listener, std::chrono::milliseconds timeout) {
  pollfd p{listener, POLLIN, 0};
  int rc;
  do {
    rc = ::poll(&p, 1, static_cast<int>(timeout.count()));
  } while (rc < 0 && errno == EINTR);
  if (rc < 0) return ErrnoToStatus(errno, "poll");
  if (rc == 0) return DeadlineExceededError("no connection within timeout");
  UniqueFd fd(::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC));
  if (!fd.valid()) return ErrnoToStatus(errno, "accept");
  return fd;
}

Status SetSendTimeout(int fd, std::chrono::milliseconds timeout) {
  timeval tv{};
  tv.tv_sec = timeout.count() / 1000;
  tv.tv_usec = (timeout.count() % 1000) * 1000;
  if (::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) != 0) {
    return ErrnoToStatus(errno, "setsockopt SO_SNDTIMEO");
  }
  return OkStatus();
}

}  // namespace gcushare::nri
