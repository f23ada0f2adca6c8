// The config manager's allow-list holds what it was traced calling once
// confined and none of the calls no daemon may make.
#include "extender/config_manager/syscalls.h"

#include <gtest/gtest.h>
#include <sys/ioctl.h>

namespace gcushare::config_manager {
namespace {

TEST(ConfigManagerSyscallsTest, AllowsWhatItCalls) {
  const SyscallAllowList list = ConfigManagerSyscalls();
  // Traced (strace -f) through its binary tests; the kube client for
  // --extender-service.
  for (const char* name :
       {"close",  "exit",       "exit_group",     "fchmod",          "fsync",
        "futex",  "getdents64", "getpid",         "madvise",         "mkdir",
        "mmap",   "mprotect",   "munmap",         "newfstatat",      "openat",
        "read",   "rename",     "rt_sigprocmask", "rt_sigtimedwait", "tgkill",
        "unlink", "write",      "socket",         "connect",         "poll"}) {
    EXPECT_TRUE(list.AllowsAnyArgs(name)) << name;
  }
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
