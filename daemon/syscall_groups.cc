#include "daemon/syscall_groups.h"

#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>

namespace gcushare {

SyscallAllowList ProcessRuntimeSyscalls() {
  SyscallAllowList list = {
      // Memory.
      "brk", "mmap", "munmap", "mprotect", "mremap", "madvise",
      // Threads and synchronisation (glibc creates threads with clone3 and
      // falls back to clone; ConfineToSyscalls makes clone3 fail ENOSYS).
      "clone", "futex", "set_robust_list", "rseq", "sched_yield",
      "sched_getaffinity", "gettid", "exit",
      // The arena of a new thread: /sys/devices/system/cpu/online, and
      // /proc/sys/vm/overcommit_memory on the first trim.
      "openat", "read", "close",
      // Logging to stderr.
      "write", "writev",
      // Time and waiting.
      "clock_gettime", "clock_getres", "gettimeofday", "clock_nanosleep",
      "nanosleep", "restart_syscall", "poll", "ppoll",
      // The shutdown signal wait, abort, exit.
      "rt_sigprocmask", "rt_sigtimedwait", "rt_sigreturn", "rt_sigaction",
      "tgkill", "getpid", "exit_group",
      // std::random_device, OpenSSL.
      "getrandom"};
  // Thread names (base::StartGuardedThread names every daemon thread).
  list.AllowWithArg("prctl", 0, PR_SET_NAME);
  return list;
}

SyscallAllowList RotatingLogSyscalls() {
  return {"openat", "write",  "fstat",  "newfstatat", "lseek",
          "close",  "rename", "unlink", "fsync",      "fdatasync"};
}

SyscallAllowList FileReadSyscalls() {
  return {"openat",   "read",   "pread64",   "lseek",      "close",
          "fstat",    "stat",   "lstat",     "newfstatat", "statx",
          "readlink", "access", "faccessat", "faccessat2", "getdents64"};
}

SyscallAllowList AtomicFileWriteSyscalls() {
  return {"openat", "write",      "fsync",      "fdatasync", "fchmod",
          "rename", "renameat",   "unlink",     "unlinkat",  "mkdir",
          "fstat",  "newfstatat", "getdents64", "close"};
}

SyscallAllowList KubeClientSyscalls() {
  SyscallAllowList list = {
      "connect", "poll", "sendto", "recvfrom", "sendmsg", "recvmsg", "sendmmsg",
      "getsockname", "getpeername", "getsockopt", "setsockopt", "fcntl",
      "shutdown", "socketpair", "read", "write", "close", "uname",
      // getaddrinfo asks the kernel for the local addresses over netlink.
      "bind"};
  list.AllowWithArg("ioctl", 1, FIONREAD);  // glibc's DNS resolver.
  // TCP and DNS over IPv4/IPv6; nscd's unix socket; netlink.
  for (int family : {AF_INET, AF_INET6, AF_UNIX, AF_NETLINK}) {
    list.AllowWithArg("socket", 0, family);
  }
  return list;
}

SyscallAllowList HttpServerSyscalls() {
  // sendmsg: an answer's head and body go out in one call (iovecs).
  return {"accept",     "accept4", "getpeername", "getsockname", "setsockopt",
          "getsockopt", "fcntl",   "poll",        "recvfrom",    "sendto",
          "sendmsg",    "read",    "write",       "shutdown",    "close"};
}

SyscallAllowList GrpcUnixSyscalls() {
  SyscallAllowList list = {
      "epoll_create1", "epoll_ctl", "epoll_wait", "epoll_pwait", "eventfd2",
      "socketpair", "bind", "listen", "accept4", "connect", "recvmsg",
      "sendmsg", "getsockname", "getpeername", "getsockopt", "setsockopt",
      "fcntl", "shutdown", "unlink", "newfstatat", "uname", "sched_yield",
      // Its threads ask for their scheduling policy.
      "sched_getparam", "sched_getscheduler"};
  list.AllowWithArg("prctl", 0, PR_SET_NAME);  // Thread names.
  // Unix sockets; gRPC also probes the IPv4/IPv6 loopback.
  for (int family : {AF_UNIX, AF_INET, AF_INET6}) {
    list.AllowWithArg("socket", 0, family);
  }
  return list;
}

SyscallAllowList UnixClientSyscalls() {
  SyscallAllowList list = {"connect", "read",   "write",    "sendmsg",
                           "recvmsg", "sendto", "recvfrom", "shutdown",
                           "close",   "fcntl",  "poll"};
  list.AllowWithArg("socket", 0, AF_UNIX);
  return list;
}

SyscallAllowList KubeletPluginSyscalls(bool vendor_library,
                                       bool metrics_endpoint) {
  SyscallAllowList list = ProcessRuntimeSyscalls();
  list.Add(RotatingLogSyscalls());
  list.Add(FileReadSyscalls());
  list.Add(AtomicFileWriteSyscalls());
  list.Add(KubeClientSyscalls());
  list.Add(GrpcUnixSyscalls());
  if (vendor_library) list.Allow("ioctl");
  if (metrics_endpoint) list.Add(HttpServerSyscalls());
  return list;
}

}  // namespace gcushare
