#include "daemon/seccomp.h"

#include <seccomp.h>
#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <memory>
#include <set>

namespace gcushare {

std::vector<std::string> BaselineSyscalls() {
  return {
      // Memory.
      "brk",
      "mmap",
      "munmap",
      "mprotect",
      "mremap",
      "madvise",
      "membarrier",
      // Threads and synchronisation.
      "clone",
      "futex",
      "set_robust_list",
      "get_robust_list",
      "rseq",
      "set_tid_address",
      "sched_yield",
      "sched_getaffinity",
      "gettid",
      // Files.
      "read",
      "write",
      "readv",
      "writev",
      "pread64",
      "pwrite64",
      "open",
      "openat",
      "close",
      "fstat",
      "stat",
      "lstat",
      "newfstatat",
      "statx",
      "lseek",
      "fcntl",
      "dup",
      "dup2",
      "dup3",
      "pipe",
      "pipe2",
      "getdents64",
      "readlink",
      "readlinkat",
      "access",
      "faccessat",
      "faccessat2",
      "rename",
      "renameat",
      "renameat2",
      "unlink",
      "unlinkat",
      "mkdir",
      "mkdirat",
      "fsync",
      "fdatasync",
      "ftruncate",
      "fchmod",
      "umask",
      "getcwd",
      "ioctl",
      "statfs",
      "fstatfs",
      "inotify_init1",
      "inotify_add_watch",
      "inotify_rm_watch",
      // Polling and waiting.
      "poll",
      "ppoll",
      "select",
      "pselect6",
      "epoll_create",
      "epoll_create1",
      "epoll_ctl",
      "epoll_wait",
      "epoll_pwait",
      "eventfd2",
      "timerfd_create",
      "timerfd_settime",
      "nanosleep",
      "clock_nanosleep",
      "restart_syscall",
      // Time, identity, limits.
      "clock_gettime",
      "clock_getres",
      "gettimeofday",
      "time",
      "getpid",
      "getppid",
      "getuid",
      "geteuid",
      "getgid",
      "getegid",
      "getrandom",
      "uname",
      "sysinfo",
      "prlimit64",
      "getrlimit",
      "getrusage",
      "prctl",
      "arch_prctl",
      // Signals and exit.
      "rt_sigaction",
      "rt_sigprocmask",
      "rt_sigreturn",
      "rt_sigtimedwait",
      "sigaltstack",
      "tgkill",
      "tkill",
      "kill",
      "exit",
      "exit_group",
  };
}

std::vector<std::string> NetworkSyscalls() {
  return {"socket",      "socketpair", "connect",   "bind",     "listen",
          "accept",      "accept4",    "sendto",    "recvfrom", "sendmsg",
          "recvmsg",     "sendmmsg",   "recvmmsg",  "shutdown", "getsockname",
          "getpeername", "setsockopt", "getsockopt"};
}

namespace {

#if defined(__x86_64__)
// A denied call traps (SIGSYS): the handler says so once per system call on
// stderr, by name, then makes the call fail with EPERM as the filter's
// default would. Names are resolved before the filter is loaded: the
// handler only reads this table and write(2)s (async-signal-safe).
constexpr int kMaxSyscall = 512;
std::array<const char*, kMaxSyscall> g_names{};
std::array<std::atomic<bool>, kMaxSyscall> g_reported{};

void AppendText(char* buf, size_t& n, size_t cap, const char* text) {
  while (*text != '\0' && n + 1 < cap) buf[n++] = *text++;
}

void OnDeniedSyscall(int, siginfo_t* info, void* context) {
  const int nr = info->si_syscall;
  auto* uc = static_cast<ucontext_t*>(context);
  uc->uc_mcontext.gregs[REG_RAX] = -EPERM;
  if (nr < 0 || nr >= kMaxSyscall || g_reported[nr].exchange(true)) return;
  char line[160];
  size_t n = 0;
  AppendText(line, n, sizeof(line), "seccomp: denied system call ");
  AppendText(line, n, sizeof(line), g_names[nr] ? g_names[nr] : "?");
  AppendText(line, n, sizeof(line), " (");
  char digits[12];
  int d = 0;
  for (int v = nr; d == 0 || v > 0; v /= 10) digits[d++] = '0' + v % 10;
  while (d > 0 && n + 1 < sizeof(line)) line[n++] = digits[--d];
  AppendText(line, n, sizeof(line),
             "): failed with EPERM; reported once per call\n");
  ssize_t ignored = ::write(STDERR_FILENO, line, n);
  (void)ignored;
}

// Installs the SIGSYS handler; false when it cannot (the filter then
// denies silently).
bool InstallDeniedSyscallReporter() {
  for (int nr = 0; nr < kMaxSyscall; ++nr) {
    if (g_names[nr] == nullptr) {
      // Kept for the life of the process (the handler reads them).
      g_names[nr] = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr);
    }
  }
  struct sigaction action {};
  action.sa_sigaction = OnDeniedSyscall;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  return sigaction(SIGSYS, &action, nullptr) == 0;
}
#else
bool InstallDeniedSyscallReporter() { return false; }
#endif

}  // namespace

Status ConfineToSyscalls(const std::vector<std::string>& allowed) {
  const uint32_t deny =
      InstallDeniedSyscallReporter() ? SCMP_ACT_TRAP : SCMP_ACT_ERRNO(EPERM);
  std::unique_ptr<void, void (*)(scmp_filter_ctx)> ctx(seccomp_init(deny),
                                                       seccomp_release);
  if (!ctx) return InternalError("seccomp_init failed");
  int rc = seccomp_attr_set(ctx.get(), SCMP_FLTATR_CTL_TSYNC, 1);
  if (rc != 0) return ErrnoToStatus(-rc, "seccomp: thread sync");
  std::set<std::string> names(allowed.begin(), allowed.end());
  for (const std::string& name : names) {
    int nr = seccomp_syscall_resolve_name(name.c_str());
    if (nr == __NR_SCMP_ERROR) continue;  // Not on this architecture.
    rc = seccomp_rule_add(ctx.get(), SCMP_ACT_ALLOW, nr, 0);
    if (rc != 0) return ErrnoToStatus(-rc, "seccomp: allow " + name);
  }
  if (names.count("clone3") == 0) {
    int nr = seccomp_syscall_resolve_name("clone3");
    if (nr != __NR_SCMP_ERROR) {
      // glibc creates threads with clone3 and falls back to clone only on
      // ENOSYS.
      rc = seccomp_rule_add(ctx.get(), SCMP_ACT_ERRNO(ENOSYS), nr, 0);
      if (rc != 0) return ErrnoToStatus(-rc, "seccomp: clone3 rule");
    }
  }
  rc = seccomp_load(ctx.get());
  if (rc != 0) return ErrnoToStatus(-rc, "seccomp: load filter");
  return OkStatus();
}

}  // namespace gcushare
