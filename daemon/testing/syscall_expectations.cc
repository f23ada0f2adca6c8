#include "daemon/testing/syscall_expectations.h"

#include <gtest/gtest.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include <string>

namespace gcushare::testing {

void ExpectAllowsAnyArgs(const SyscallAllowList& list,
                         std::initializer_list<const char*> names) {
  for (const char* name : names) {
    EXPECT_TRUE(list.AllowsAnyArgs(name)) << name << " is not allowed";
  }
}

void ExpectRefusesForbidden(const SyscallAllowList& list,
                            std::initializer_list<const char*> also) {
  for (const std::string& name : ForbiddenSyscalls()) {
    EXPECT_FALSE(list.Allows(name)) << name << " is forbidden to every daemon";
  }
  for (const char* name : also) {
    EXPECT_FALSE(list.Allows(name)) << name << " is allowed";
  }
}

void ExpectClientSocketFamilies(const SyscallAllowList& list) {
  for (int family : {AF_INET, AF_INET6, AF_UNIX, AF_NETLINK}) {
    EXPECT_TRUE(list.AllowsArg("socket", 0, family))
        << "socket family " << family << " is not allowed";
  }
  EXPECT_FALSE(list.AllowsArg("socket", 0, AF_PACKET))
      << "socket family AF_PACKET is allowed";
}

void ExpectNoGeneralIoctl(const SyscallAllowList& list) {
  EXPECT_FALSE(list.AllowsAnyArgs("ioctl")) << "any ioctl is allowed";
  EXPECT_FALSE(list.AllowsArg("ioctl", 1, TCGETS)) << "ioctl TCGETS is allowed";
}

}  // namespace gcushare::testing
