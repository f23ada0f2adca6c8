// The config manager's allow-list holds what it was traced calling once
// confined and none of the calls no daemon may make.
#include "config-manager/syscalls.h"

#include <gtest/gtest.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

namespace gcushare::config_manager {
namespace {

TEST(ConfigManagerSyscallsTest, AllowsWhatItCalls) {
  const SyscallAllowList list = ConfigManagerSyscalls();
  // Traced (strace -f) through its binary tests; the kube client for
  // --extender-service.
  const char* const kTraced[] = {"close",
                                 "exit",
                                 "exit_group",
                                 "fchmod",
                                 "fsync",
                                 "futex",
                                 "getdents64",
                                 "getpid",
                                 "madvise",
                                 "mkdir",
                                 "mmap",
                                 "mprotect",
                                 "munmap",
                                 "newfstatat",
                                 "openat",
                                 "read",
                                 "rename",
                                 "rt_sigprocmask",
                                 "rt_sigtimedwait",
                                 "tgkill",
                                 "unlink",
                                 "write",
                                 "connect",
                                 "poll"};
  for (const char* name : kTraced) {
    EXPECT_TRUE(list.AllowsAnyArgs(name)) << name;
  }
  // TCP, DNS, unix sockets, getaddrinfo's netlink; no other family.
  for (int family : {AF_INET, AF_INET6, AF_UNIX, AF_NETLINK}) {
    EXPECT_TRUE(list.AllowsArg("socket", 0, family)) << family;
  }
  EXPECT_FALSE(list.AllowsArg("socket", 0, AF_PACKET));
}

TEST(ConfigManagerSyscallsTest, ForbidsWhatItNeverNeeds) {
  const SyscallAllowList list = ConfigManagerSyscalls();
  for (const std::string& name : ForbiddenSyscalls()) {
    EXPECT_FALSE(list.Allows(name)) << name;
  }
  for (const char* name : {"listen", "accept4", "epoll_wait"}) {
    EXPECT_FALSE(list.Allows(name)) << name;
  }
  EXPECT_FALSE(list.AllowsAnyArgs("ioctl"));
}

}  // namespace
}  // namespace gcushare::config_manager
