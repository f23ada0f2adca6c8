// gtest expectations on a daemon's seccomp allow-list (daemon/seccomp.h),
// shared by each daemon's syscalls_test: the calls it was traced making,
// the calls no daemon may make, and the socket families of a network
// client. Each failing name or family is reported on its own, so one run
// lists everything wrong with a list.
//
// Test-only. Thread-safety: as gtest's EXPECT_* (call from the test's
// thread). Failure: adds a non-fatal gtest failure; never throws.
#ifndef GCUSHARE_DAEMON_TESTING_SYSCALL_EXPECTATIONS_H_
#define GCUSHARE_DAEMON_TESTING_SYSCALL_EXPECTATIONS_H_

#include <initializer_list>

#include "daemon/seccomp.h"

namespace gcushare::testing {

// Every one of `names` is allowed with any arguments.
void ExpectAllowsAnyArgs(const SyscallAllowList& list,
                         std::initializer_list<const char*> names);

// No call of ForbiddenSyscalls() is allowed, nor any of `also` (with any
// arguments or some).
void ExpectRefusesForbidden(const SyscallAllowList& list,
                            std::initializer_list<const char*> also = {});

// The sockets of a TCP, DNS and unix-socket client (AF_INET, AF_INET6,
// AF_UNIX, and AF_NETLINK for getaddrinfo) are allowed; no other family
// (AF_PACKET stands for them).
void ExpectClientSocketFamilies(const SyscallAllowList& list);

// ioctl is allowed neither with any arguments nor for a terminal request
// (TCGETS): only the requests a list names on purpose, if any.
void ExpectNoGeneralIoctl(const SyscallAllowList& list);

}  // namespace gcushare::testing

#endif  // GCUSHARE_DAEMON_TESTING_SYSCALL_EXPECTATIONS_H_
