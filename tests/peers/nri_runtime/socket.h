// The stand-in runtime's own unix socket handling (containerd's side: it
// creates the NRI socket and accepts plugins). Deliberately separate from
// the plugin's nri-plugin/net so that a bug there cannot hide in a test.
//
// Errors are Status values naming the path and the failing call.
// Thread-safety: plain functions; an Fd is owned by one owner at a time.
#ifndef GCUSHARE_TESTS_PEERS_NRI_RUNTIME_SOCKET_H_
#define GCUSHARE_TESTS_PEERS_NRI_RUNTIME_SOCKET_H_

#include <chrono>
#include <string>
#include <string_view>

#include "status/status.h"

namespace gcushare::nri_runtime {

// An owned file descriptor, closed on destruction.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() { Reset(); }
  Fd(Fd&& other) noexcept : fd_(other.Release()) {}
  Fd& operator=(Fd&& other) noexcept;
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  int Release();
  void Reset(int fd = -1);

 private:
  int fd_ = -1;
};

// Binds and listens on `path`; a stale socket file left by an earlier run
// is replaced, any other kind of file is an error (and is left alone).
StatusOr<Fd> ListenOn(const std::string& path);

// Waits up to `timeout` for a connection; kDeadlineExceeded when none came.
StatusOr<Fd> AcceptOn(int listener, std::chrono::milliseconds timeout);

// Writes all of `bytes` (no SIGPIPE). A peer that stops reading for
// `timeout` or a closed socket gives kUnavailable.
Status SendAll(int fd, std::string_view bytes,
               std::chrono::milliseconds timeout);

}  // namespace gcushare::nri_runtime

#endif  // GCUSHARE_TESTS_PEERS_NRI_RUNTIME_SOCKET_H_
