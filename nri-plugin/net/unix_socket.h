// Unix stream sockets for the NRI transport: the plugin dials the runtime's
// socket; the stand-in runtime listens on one.
//
// Every function returns a Status naming the path and the failing call;
// file descriptors are returned as UniqueFd, closed on destruction.
// Thread-safety: plain functions; a UniqueFd is owned by one thread.
#ifndef GCUSHARE_NRI_PLUGIN_NET_UNIX_SOCKET_H_
#define GCUSHARE_NRI_PLUGIN_NET_UNIX_SOCKET_H_

#include <chrono>
#include <string>

#include "status/status.h"

namespace gcushare::nri {

// An owned file descriptor.
class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  ~UniqueFd() { Reset(); }
  UniqueFd(UniqueFd&& other) noexcept : fd_(other.Release()) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept;
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  int Release() {
    int fd = fd_;
    fd_ = -1;
    return fd;
  }
  void Reset(int fd = -1);

 private:
  int fd_ = -1;
};

// Connects to the stream socket at `path` (kUnavailable when nobody
// listens, kNotFound when the path does not exist).
StatusOr<UniqueFd> ConnectUnix(const std::string& path);

// Binds and listens on `path`, replacing a stale socket file left by a
// previous run (never another kind of file).
StatusOr<UniqueFd> ListenUnix(const std::string& path);

// Waits up to `timeout` for a connection on `listener`; kDeadlineExceeded
// when none came.
StatusOr<UniqueFd> AcceptUnix(int listener, std::chrono::milliseconds timeout);

// Limits how long one blocking send may wait for a peer that stopped
// reading.
Status SetSendTimeout(int fd, std::chrono::milliseconds timeout);

}  // namespace gcushare::nri

#endif  // GCUSHARE_NRI_PLUGIN_NET_UNIX_SOCKET_H_
