#include "tests/peers/peer_syscalls.h"

#include "daemon/syscall_groups.h"

namespace gcushare::peers {

SyscallAllowList PeerSyscalls() {
  SyscallAllowList list = {
      // Memory.
      "brk", "mmap", "munmap", "mprotect", "mremap", "madvise", "membarrier",
      // Threads and synchronisation.
      "clone", "futex", "set_robust_list", "get_robust_list", "rseq",
      "set_tid_address", "sched_yield", "sched_getaffinity", "gettid",
      // Files.
      "read", "write", "readv", "writev", "pread64", "pwrite64", "open",
      "openat", "close", "fstat", "stat", "lstat", "newfstatat", "statx",
      "lseek", "fcntl", "dup", "dup2", "dup3", "pipe", "pipe2", "getdents64",
      "readlink", "readlinkat", "access", "faccessat", "faccessat2", "rename",
      "renameat", "renameat2", "unlink", "unlinkat", "mkdir", "mkdirat",
      "fsync", "fdatasync", "ftruncate", "fchmod", "umask", "getcwd", "ioctl",
      "statfs", "fstatfs", "inotify_init1", "inotify_add_watch",
      "inotify_rm_watch",
      // Polling and waiting.
      "poll", "ppoll", "select", "pselect6", "epoll_create", "epoll_create1",
      "epoll_ctl", "epoll_wait", "epoll_pwait", "eventfd2", "timerfd_create",
      "timerfd_settime", "nanosleep", "clock_nanosleep", "restart_syscall",
      // Time, identity, limits.
      "clock_gettime", "clock_getres", "gettimeofday", "time", "getpid",
      "getppid", "getuid", "geteuid", "getgid", "getegid", "getrandom", "uname",
      "sysinfo", "prlimit64", "getrlimit", "getrusage", "prctl", "arch_prctl",
      // Signals and exit.
      "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "rt_sigtimedwait",
      "sigaltstack", "tgkill", "tkill", "kill", "exit", "exit_group",
      // Sockets: unix and TCP clients and servers.
      "socket", "socketpair", "connect", "bind", "listen", "accept", "accept4",
      "sendto", "recvfrom", "sendmsg", "recvmsg", "sendmmsg", "recvmmsg",
      "shutdown", "getsockname", "getpeername", "setsockopt", "getsockopt"};
  // gRPC's threads (the stand-in kubelet).
  list.Add(GrpcUnixSyscalls());
  return list;
}

}  // namespace gcushare::peers
