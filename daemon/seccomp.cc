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
#include <string>

#include "daemon/sanitizer_syscalls.h"

namespace gcushare {

SyscallAllowList::SyscallAllowList(std::initializer_list<const char*> names) {
  for (const char* name : names) Allow(name);
}

SyscallAllowList& SyscallAllowList::Allow(const std::string& name) {
  any_args_.insert(name);
  return *this;
}

SyscallAllowList& SyscallAllowList::AllowWithArg(const std::string& name,
                                                 unsigned arg_index,
                                                 uint64_t value) {
  narrowed_[name].insert({arg_index, value});
  return *this;
}

SyscallAllowList& SyscallAllowList::Add(const SyscallAllowList& group) {
  any_args_.insert(group.any_args_.begin(), group.any_args_.end());
  for (const auto& [name, values] : group.narrowed_) {
    narrowed_[name].insert(values.begin(), values.end());
  }
  return *this;
}

bool SyscallAllowList::AllowsAnyArgs(const std::string& name) const {
  return any_args_.count(name) != 0;
}

bool SyscallAllowList::Allows(const std::string& name) const {
  return AllowsAnyArgs(name) || narrowed_.count(name) != 0;
}

bool SyscallAllowList::AllowsArg(const std::string& name, unsigned arg_index,
                                 uint64_t value) const {
  if (AllowsAnyArgs(name)) return true;
  auto it = narrowed_.find(name);
  return it != narrowed_.end() && it->second.count({arg_index, value}) != 0;
}

size_t SyscallAllowList::size() const {
  size_t n = any_args_.size();
  for (const auto& entry : narrowed_) n += any_args_.count(entry.first) == 0;
  return n;
}

std::vector<std::string> ForbiddenSyscalls() {
  return {
      "execve",
      "execveat",
      "ptrace",
      "process_vm_readv",
      "process_vm_writev",
      "mount",
      "umount2",
      "pivot_root",
      "chroot",
      "unshare",
      "setns",
      "init_module",
      "finit_module",
      "delete_module",
      "kexec_load",
      "kexec_file_load",
      "reboot",
      "swapon",
      "swapoff",
      "bpf",
      "perf_event_open",
      "userfaultfd",
      "open_by_handle_at",
      "keyctl",
      "add_key",
      "request_key",
      "setuid",
      "setgid",
      "setresuid",
      "setresgid",
      "capset",
      "fork",
      "vfork",
      "seccomp",
  };
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

Status ConfineToSyscalls(const SyscallAllowList& allowed) {
  for (const std::string& name : ForbiddenSyscalls()) {
    if (allowed.Allows(name)) {
      return InvalidArgumentError("seccomp: the allow-list names " + name +
                                  ", which no daemon may call");
    }
  }
  // What the filter allows: the daemon's list, plus in sanitizer builds
  // what the sanitizer runtime needs (daemon/sanitizer_syscalls.h).
  SyscallAllowList effective = allowed;
  if (SanitizerRuntimeBuild()) effective.Add(SanitizerRuntimeSyscalls());
  const uint32_t deny =
      InstallDeniedSyscallReporter() ? SCMP_ACT_TRAP : SCMP_ACT_ERRNO(EPERM);
  std::unique_ptr<void, void (*)(scmp_filter_ctx)> ctx(seccomp_init(deny),
                                                       seccomp_release);
  if (!ctx) return InternalError("seccomp_init failed");
  int rc = seccomp_attr_set(ctx.get(), SCMP_FLTATR_CTL_TSYNC, 1);
  if (rc != 0) return ErrnoToStatus(-rc, "seccomp: thread sync");
  for (const std::string& name : effective.any_args()) {
    int nr = seccomp_syscall_resolve_name(name.c_str());
    if (nr == __NR_SCMP_ERROR) continue;  // Not on this architecture.
    rc = seccomp_rule_add(ctx.get(), SCMP_ACT_ALLOW, nr, 0);
    if (rc != 0) return ErrnoToStatus(-rc, "seccomp: allow " + name);
  }
  for (const auto& [name, values] : effective.narrowed()) {
    if (effective.AllowsAnyArgs(name)) continue;
    int nr = seccomp_syscall_resolve_name(name.c_str());
    if (nr == __NR_SCMP_ERROR) continue;
    for (const auto& [index, value] : values) {
      // One rule per value; the kernel allows the call when any matches.
      // Compared as 32 bits: the values we narrow on (ioctl requests,
      // prctl options) are ints, and callers may sign-extend them.
      rc = seccomp_rule_add(
          ctx.get(), SCMP_ACT_ALLOW, nr, 1,
          scmp_arg_cmp{index, SCMP_CMP_MASKED_EQ, 0xffffffffu, value});
      if (rc != 0) {
        return ErrnoToStatus(-rc, "seccomp: allow " + name + " argument " +
                                      std::to_string(index) + " = " +
                                      std::to_string(value));
      }
    }
  }
  if (!effective.AllowsAnyArgs("clone3")) {
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
