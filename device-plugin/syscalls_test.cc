// The device plugin's allow-list holds what it was traced calling once
// confined and none of the calls no daemon may make.
#include "device-plugin/syscalls.h"

#include <gtest/gtest.h>
#include <sys/prctl.h>

#include "daemon/testing/syscall_expectations.h"

namespace gcushare::deviceplugin {
namespace {

TEST(DevicePluginSyscallsTest, AllowsWhatItCalls) {
  for (bool vendor : {false, true}) {
    const SyscallAllowList list = DevicePluginSyscalls(vendor);
    // Traced (strace -f) through the end-to-end tests; gRPC's threads ask
    // for their scheduling policy (sched_getparam, sched_getscheduler).
    testing::ExpectAllowsAnyArgs(
        list,
        {"accept4", "bind", "clock_nanosleep", "clone", "close", "connect",
         "epoll_create1", "epoll_ctl", "epoll_wait", "eventfd2", "exit",
         "exit_group", "fcntl", "futex", "getpeername", "getpid", "getrandom",
         "getsockname", "getsockopt", "gettid", "listen", "madvise", "mmap",
         "mprotect", "munmap", "newfstatat", "openat", "poll", "read",
         "recvfrom", "recvmsg", "rseq", "rt_sigprocmask", "rt_sigreturn",
         "rt_sigtimedwait", "sched_getparam", "sched_getscheduler",
         "sched_yield", "sendmsg", "sendto", "set_robust_list", "setsockopt",
         "shutdown", "socketpair", "tgkill", "uname", "unlink", "write",
         // The CDI spec's atomic rewrite.
         "fsync", "fchmod", "rename"});
    EXPECT_TRUE(list.AllowsArg("prctl", 0, PR_SET_NAME));  // gRPC threads.
    testing::ExpectClientSocketFamilies(list);
  }
}

TEST(DevicePluginSyscallsTest, ForbidsWhatItNeverNeeds) {
  for (bool vendor : {false, true}) {
    const SyscallAllowList list = DevicePluginSyscalls(vendor);
    testing::ExpectRefusesForbidden(list);
    EXPECT_FALSE(list.AllowsArg("prctl", 0, PR_SET_DUMPABLE));
  }
}

TEST(DevicePluginSyscallsTest, AnyIoctlOnlyForTheVendorLibrary) {
  testing::ExpectNoGeneralIoctl(DevicePluginSyscalls(false));
  EXPECT_TRUE(DevicePluginSyscalls(true).AllowsAnyArgs("ioctl"));
}

}  // namespace
}  // namespace gcushare::deviceplugin
