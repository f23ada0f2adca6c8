// The NRI plugin's allow-list holds what it was traced calling once
// confined and none of the calls no daemon may make.
#include "nri-plugin/syscalls.h"

#include <gtest/gtest.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

namespace gcushare::nri {
namespace {

TEST(NriPluginSyscallsTest, AllowsWhatItCalls) {
  const SyscallAllowList list = NriPluginSyscalls();
  // Traced (strace -f) through the end-to-end tests.
  for (const char* name : {"clone",          "close",
                           "connect",        "exit",
                           "exit_group",     "fcntl",
                           "futex",          "getpeername",
                           "getpid",         "getsockname",
                           "getsockopt",     "gettid",
                           "madvise",        "mmap",
                           "mprotect",       "munmap",
                           "newfstatat",     "openat",
                           "poll",           "read",
                           "recvfrom",       "rseq",
                           "rt_sigprocmask", "rt_sigtimedwait",
                           "sendto",         "set_robust_list",
                           "setsockopt",     "shutdown",
                           "socketpair",     "tgkill",
                           "write"}) {
    EXPECT_TRUE(list.AllowsAnyArgs(name)) << name;
  }
  // TCP, DNS, unix sockets, getaddrinfo's netlink; no other family.
  for (int family : {AF_INET, AF_INET6, AF_UNIX, AF_NETLINK}) {
    EXPECT_TRUE(list.AllowsArg("socket", 0, family)) << family;
  }
  EXPECT_FALSE(list.AllowsArg("socket", 0, AF_PACKET));
}

TEST(NriPluginSyscallsTest, ForbidsWhatItNeverNeeds) {
  const SyscallAllowList list = NriPluginSyscalls();
  for (const std::string& name : ForbiddenSyscalls()) {
    EXPECT_FALSE(list.Allows(name)) << name;
  }
  // A client only: no listening socket, no file rewrites, no other ioctl.
  for (const char* name : {"listen", "accept4", "fchmod", "mkdir"}) {
    EXPECT_FALSE(list.Allows(name)) << name;
  }
  EXPECT_FALSE(list.AllowsAnyArgs("ioctl"));
  EXPECT_FALSE(list.AllowsArg("ioctl", 1, TCGETS));
}

}  // namespace
}  // namespace gcushare::nri
