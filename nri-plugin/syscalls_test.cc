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
  testing::ExpectAllowsAnyArgs(
      list,
      {// Threads, signals, memory.
       "clone", "exit", "exit_group", "futex", "getpid", "gettid", "madvise",
       "mmap", "mprotect", "munmap", "rseq", "rt_sigprocmask",
       "rt_sigtimedwait", "set_robust_list", "tgkill",
       // Files.
       "close", "fcntl", "newfstatat", "openat", "read", "write",
       // Sockets: the NRI connection, the kube client, DNS.
       "connect", "getpeername", "getsockname", "getsockopt", "poll",
       "recvfrom", "sendto", "setsockopt", "shutdown", "socketpair"});
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
