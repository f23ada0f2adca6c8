// The NRI plugin's allow-list holds what it was traced calling once
// confined and none of the calls no daemon may make.
#include "nri-plugin/syscalls.h"

#include <gtest/gtest.h>

#include "daemon/testing/syscall_expectations.h"

namespace gcushare::nri {
namespace {

TEST(NriPluginSyscallsTest, AllowsWhatItCalls) {
  const SyscallAllowList list = NriPluginSyscalls();
  // Traced (strace -f) through the end-to-end tests.
  testing::ExpectAllowsAnyArgs(list, {"clone",          "close",
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
                                      "write"});
  testing::ExpectClientSocketFamilies(list);
}

TEST(NriPluginSyscallsTest, ForbidsWhatItNeverNeeds) {
  const SyscallAllowList list = NriPluginSyscalls();
  // A client only: no listening socket, no file rewrites, no other ioctl.
  testing::ExpectRefusesForbidden(list,
                                  {"listen", "accept4", "fchmod", "mkdir"});
  testing::ExpectNoGeneralIoctl(list);
}

}  // namespace
}  // namespace gcushare::nri
