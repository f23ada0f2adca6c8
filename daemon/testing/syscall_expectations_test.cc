// The expectations pass on a list that meets them and fail, naming what is
// wrong, on one that does not.
#include "daemon/testing/syscall_expectations.h"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include <string>

namespace gcushare::testing {
namespace {

SyscallAllowList ClientList() {
  SyscallAllowList list{"read", "write"};
  for (int family : {AF_INET, AF_INET6, AF_UNIX, AF_NETLINK}) {
    list.AllowWithArg("socket", 0, family);
  }
  return list;
}

TEST(SyscallExpectationsTest, PassOnAListThatMeetsThem) {
  const SyscallAllowList list = ClientList();
  ExpectAllowsAnyArgs(list, {"read", "write"});
  ExpectRefusesForbidden(list, {"listen"});
  ExpectClientSocketFamilies(list);
  ExpectNoGeneralIoctl(list);
}

TEST(SyscallExpectationsTest, NameTheMissingCall) {
  EXPECT_NONFATAL_FAILURE(ExpectAllowsAnyArgs(ClientList(), {"read", "mmap"}),
                          "mmap is not allowed");
}

TEST(SyscallExpectationsTest, NameTheForbiddenCall) {
  SyscallAllowList list = ClientList();
  list.Allow(ForbiddenSyscalls().front());
  EXPECT_NONFATAL_FAILURE(
      ExpectRefusesForbidden(list),
      ForbiddenSyscalls().front() + " is forbidden to every daemon");
  EXPECT_NONFATAL_FAILURE(ExpectRefusesForbidden(ClientList(), {"write"}),
                          "write is allowed");
}

TEST(SyscallExpectationsTest, NameTheWrongSocketFamily) {
  SyscallAllowList list = ClientList();
  list.AllowWithArg("socket", 0, AF_PACKET);
  EXPECT_NONFATAL_FAILURE(ExpectClientSocketFamilies(list),
                          "AF_PACKET is allowed");
  SyscallAllowList no_inet{"read"};
  for (int family : {AF_INET6, AF_UNIX, AF_NETLINK}) {
    no_inet.AllowWithArg("socket", 0, family);
  }
  EXPECT_NONFATAL_FAILURE(
      ExpectClientSocketFamilies(no_inet),
      "socket family " + std::to_string(AF_INET) + " is not allowed");
}

TEST(SyscallExpectationsTest, NameTheGeneralIoctl) {
  SyscallAllowList list = ClientList();
  list.AllowWithArg("ioctl", 1, FIONREAD);  // A request named on purpose.
  ExpectNoGeneralIoctl(list);
  list.AllowWithArg("ioctl", 1, TCGETS);
  EXPECT_NONFATAL_FAILURE(ExpectNoGeneralIoctl(list),
                          "ioctl TCGETS is allowed");
}

}  // namespace
}  // namespace gcushare::testing
