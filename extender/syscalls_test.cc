// The extender's allow-list holds what it was traced calling once confined
// and none of the calls no daemon may make.
#include "extender/syscalls.h"

#include <gtest/gtest.h>
#include <sys/ioctl.h>

#include "daemon/testing/syscall_expectations.h"

namespace gcushare::extender {
namespace {

TEST(ExtenderSyscallsTest, AllowsWhatItCalls) {
  const SyscallAllowList list = ExtenderSyscalls();
  // Traced (strace -f) through the end-to-end tests and kube/tls_test.
  testing::ExpectAllowsAnyArgs(
      list,
      {// Threads, signals, memory.
       "brk", "clock_nanosleep", "clone", "exit", "exit_group", "futex",
       "getpid", "getrandom", "gettid", "madvise", "mmap", "mprotect", "munmap",
       "rseq", "rt_sigprocmask", "rt_sigtimedwait", "set_robust_list", "tgkill",
       // Files.
       "close", "fcntl", "lseek", "newfstatat", "openat", "read", "write",
       // Sockets: the HTTP server, the kube client, DNS.
       "accept", "bind", "connect", "getpeername", "getsockname", "getsockopt",
       "poll", "recvfrom", "recvmsg", "sendmmsg", "sendto", "setsockopt",
       "shutdown", "socketpair"});
  EXPECT_TRUE(list.AllowsArg("ioctl", 1, FIONREAD));  // DNS resolution.
  testing::ExpectClientSocketFamilies(list);
}

TEST(ExtenderSyscallsTest, ForbidsWhatItNeverNeeds) {
  const SyscallAllowList list = ExtenderSyscalls();
  // No gRPC, no unix socket server, no file rewrites, no other ioctl.
  testing::ExpectRefusesForbidden(list,
                                  {"epoll_wait", "listen", "fchmod", "mkdir"});
  testing::ExpectNoGeneralIoctl(list);
}

}  // namespace
}  // namespace gcushare::extender
