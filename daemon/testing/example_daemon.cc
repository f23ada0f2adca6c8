// A minimal daemon built on Daemon, for daemon_integration_test: it starts,
// confines itself, says "ready" and waits for SIGTERM. With --probe-socket it
// tries to open a socket after confinement and logs the outcome, so the test
// can see seccomp at work in a real daemon.
#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "daemon/daemon.h"
#include "daemon/syscall_groups.h"

int main(int argc, char** argv) {
  gcushare::Daemon daemon("gcushare-example-daemon",
                          "Example daemon used by the daemon base's tests.");
  bool probe_socket = false;
  daemon.app().add_flag("--probe-socket", probe_socket,
                        "After confinement, try to open a socket (not on the "
                        "allow-list) and log the result.");
  if (auto code = daemon.ParseFlags(argc, argv)) return *code;
  if (auto s = daemon.StartLogging(); !s.ok()) return daemon.Fail(s);
  gcushare::SyscallAllowList syscalls = gcushare::ProcessRuntimeSyscalls();
  syscalls.Add(gcushare::RotatingLogSyscalls());
  if (auto s = daemon.Confine(syscalls); !s.ok()) return daemon.Fail(s);
  if (probe_socket) {
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd >= 0) {
      spdlog::info("probe: socket allowed");
      close(fd);
    } else {
      spdlog::info("probe: socket refused: {}", std::strerror(errno));
    }
  }
  spdlog::info("ready");
  daemon.shutdown().Wait();
  spdlog::info("shutting down");
  return daemon.Finish();
}
