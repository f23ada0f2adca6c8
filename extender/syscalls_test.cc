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
  testing::ExpectAllowsAnyArgs(list, {"accept",
                                      "brk",
                                      "clock_nanosleep",
                                      "clone",
                                      "close",
                                      "connect",
                                      "exit",
                                      "exit_group",
                                      "fcntl",
                                      "futex",
                                      "getpeername",
                                      "getpid",
                                      "getsockname",
                                      "getsockopt",
                                      "gettid",
                                      "madvise",
                                      "mmap",
                                      "mprotect",
                                      "munmap",
                                      "openat",
                                      "poll",
                                      "read",
                                      "recvfrom",
                                      "rseq",
                                      "rt_sigprocmask",
                                      "rt_sigtimedwait",
                                      "sendto",
                                      "set_robust_list",
                                      "setsockopt",
                                      "shutdown",
                                      "socketpair",
                                      "tgkill",
                                      "write",
                                      "getrandom",
                                      "newfstatat",
                                      "lseek",
                                      "sendmmsg",
                                      "recvmsg",
                                      "bind"});
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
