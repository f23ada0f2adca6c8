// The DRA driver's allow-list holds what its parts call once confined (the
// device plugin's traced set: gRPC on unix sockets, the kube client, atomic
// file writes) and none of the calls no daemon may make.
#include "dra-driver/syscalls.h"

#include <gtest/gtest.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>

namespace gcushare::dra {
namespace {

TEST(DraDriverSyscallsTest, AllowsWhatItCalls) {
  for (bool vendor : {false, true}) {
    const SyscallAllowList list = DraDriverSyscalls(vendor);
    for (const char* name :
         {"accept4", "bind", "clock_nanosleep", "clone", "close", "connect",
          "epoll_create1", "epoll_ctl", "epoll_wait", "eventfd2", "exit",
          "exit_group", "fcntl", "futex", "getpid", "getrandom", "gettid",
          "listen", "mmap", "mprotect", "munmap", "newfstatat", "openat",
          "poll", "read", "recvmsg", "sendmsg", "sendto", "write",
          // Checkpoint and CDI specs: atomic rewrite, removal, moving a
          // corrupt checkpoint aside.
          "fsync", "fchmod", "rename", "unlink"}) {
      EXPECT_TRUE(list.AllowsAnyArgs(name)) << name;
    }
    EXPECT_TRUE(list.AllowsArg("prctl", 0, PR_SET_NAME));
    EXPECT_TRUE(list.AllowsArg("socket", 0, AF_UNIX));
    EXPECT_FALSE(list.AllowsArg("socket", 0, AF_PACKET));
  }
}

TEST(DraDriverSyscallsTest, ForbidsWhatItNeverNeeds) {
  for (bool vendor : {false, true}) {
    for (bool metrics : {false, true}) {
      const SyscallAllowList list = DraDriverSyscalls(vendor, metrics);
      for (const std::string& name : ForbiddenSyscalls()) {
        EXPECT_FALSE(list.Allows(name)) << name;
      }
    }
  }
  EXPECT_FALSE(DraDriverSyscalls(false).AllowsAnyArgs("ioctl"));
  EXPECT_TRUE(DraDriverSyscalls(true).AllowsAnyArgs("ioctl"));
}

}  // namespace
}  // namespace gcushare::dra
