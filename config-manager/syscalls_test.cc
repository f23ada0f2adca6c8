// The config manager's allow-list holds what it was traced calling once
// confined and none of the calls no daemon may make.
#include "config-manager/syscalls.h"

#include <gtest/gtest.h>

#include "daemon/testing/syscall_expectations.h"

namespace gcushare::config_manager {
namespace {

TEST(ConfigManagerSyscallsTest, AllowsWhatItCalls) {
  const SyscallAllowList list = ConfigManagerSyscalls();
  // Traced (strace -f) through its binary tests; the kube client for
  // --extender-service.
  testing::ExpectAllowsAnyArgs(
      list,
      {// Signals, memory.
       "exit", "exit_group", "futex", "getpid", "madvise", "mmap", "mprotect",
       "munmap", "rt_sigprocmask", "rt_sigtimedwait", "tgkill",
       // Files: reads and atomic rewrites.
       "close", "fchmod", "fsync", "getdents64", "mkdir", "newfstatat",
       "openat", "read", "rename", "unlink", "write",
       // Sockets: the kube client.
       "connect", "poll"});
  testing::ExpectClientSocketFamilies(list);
}

TEST(ConfigManagerSyscallsTest, ForbidsWhatItNeverNeeds) {
  const SyscallAllowList list = ConfigManagerSyscalls();
  testing::ExpectRefusesForbidden(list, {"listen", "accept4", "epoll_wait"});
  EXPECT_FALSE(list.AllowsAnyArgs("ioctl"));
}

}  // namespace
}  // namespace gcushare::config_manager
