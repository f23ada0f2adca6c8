// The extender's allow-list holds what it was traced calling once confined
// and none of the calls no daemon may make.
#include "extender/syscalls.h"

#include <gtest/gtest.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

namespace gcushare::extender {
namespace {

TEST(ExtenderSyscallsTest, AllowsWhatItCalls) {
  const SyscallAllowList list = ExtenderSyscalls();
  // Traced (strace -f) through the end-to-end tests and kube/tls_test.
  for (const char* name : {"accept",
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
                           "bind"}) {
    EXPECT_TRUE(list.AllowsAnyArgs(name)) << name;
  }
  EXPECT_TRUE(list.AllowsArg("ioctl", 1, FIONREAD));  // DNS resolution.
  // TCP, DNS, unix sockets, getaddrinfo's netlink; no other family.
  for (int family : {AF_INET, AF_INET6, AF_UNIX, AF_NETLINK}) {
    EXPECT_TRUE(list.AllowsArg("socket", 0, family)) << family;
  }
  EXPECT_FALSE(list.AllowsArg("socket", 0, AF_PACKET));
}

TEST(ExtenderSyscallsTest, ForbidsWhatItNeverNeeds) {
  const SyscallAllowList list = ExtenderSyscalls();
  for (const std::string& name : ForbiddenSyscalls()) {
    EXPECT_FALSE(list.Allows(name)) << name;
  }
  // No gRPC, no unix socket server, no file rewrites, no other ioctl.
  for (const char* name : {"epoll_wait", "listen", "fchmod", "mkdir"}) {
    EXPECT_FALSE(list.Allows(name)) << name;
  }
  EXPECT_FALSE(list.AllowsArg("ioctl", 1, TCGETS));
  EXPECT_FALSE(list.AllowsAnyArgs("ioctl"));
}

}  // namespace
}  // namespace gcushare::extender
