// The DRA driver's allow-list holds what its parts call once confined (the
// device plugin's traced set: gRPC on unix sockets, the kube client, atomic
// file writes) and none of the calls no daemon may make.
#include "dra-driver/syscalls.h"

#include <gtest/gtest.h>
#include <sys/prctl.h>

#include "daemon/testing/syscall_expectations.h"

namespace gcushare::dra {
namespace {

TEST(DraDriverSyscallsTest, AllowsWhatItCalls) {
  for (bool vendor : {false, true}) {
    const SyscallAllowList list = DraDriverSyscalls(vendor);
    testing::ExpectAllowsAnyArgs(
        list,
        {"accept4", "bind", "clock_nanosleep", "clone", "close", "connect",
         "epoll_create1", "epoll_ctl", "epoll_wait", "eventfd2", "exit",
         "exit_group", "fcntl", "futex", "getpid", "getrandom", "gettid",
         "listen", "mmap", "mprotect", "munmap", "newfstatat", "openat", "poll",
         "read", "recvmsg", "sendmsg", "sendto", "write",
         // Checkpoint and CDI specs: atomic rewrite, removal, moving a
         // corrupt checkpoint aside.
         "fsync", "fchmod", "rename", "unlink"});
    EXPECT_TRUE(list.AllowsArg("prctl", 0, PR_SET_NAME));
    testing::ExpectClientSocketFamilies(list);
  }
}

TEST(DraDriverSyscallsTest, ForbidsWhatItNeverNeeds) {
  for (bool vendor : {false, true}) {
    for (bool metrics : {false, true}) {
      testing::ExpectRefusesForbidden(DraDriverSyscalls(vendor, metrics));
    }
  }
  testing::ExpectNoGeneralIoctl(DraDriverSyscalls(false));
  EXPECT_TRUE(DraDriverSyscalls(true).AllowsAnyArgs("ioctl"));
}

}  // namespace
}  // namespace gcushare::dra
