#include "daemon/sanitizer_syscalls.h"

#include <sys/ioctl.h>

namespace gcushare {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || \
    defined(GCUSHARE_SANITIZE_THREAD) || defined(GCUSHARE_SANITIZE_UNDEFINED)
#define GCUSHARE_SANITIZER_RUNTIME 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(undefined_behavior_sanitizer)
#define GCUSHARE_SANITIZER_RUNTIME 1
#endif
#endif

bool SanitizerRuntimeBuild() {
#if defined(GCUSHARE_SANITIZER_RUNTIME)
  return true;
#else
  return false;
#endif
}

SyscallAllowList SanitizerRuntimeSyscalls() {
  SyscallAllowList list = {
      // Every new thread gets an alternate signal stack (ASan's SEGV
      // handler) and reads its stack bounds (pthread_getattr_np asks for
      // the CPU set).
      "sigaltstack", "sched_getaffinity",
      // IsAccessibleMemoryRange (UBSan's vptr check, report printing)
      // writes the range into a pipe to test it.
      "pipe2", "pipe", "write", "read", "close",
      // The executable's name and mappings for reports and LSan's root set
      // (/proc/self/exe, /proc/self/maps); the thread list of
      // /proc/<pid>/task (lseek, getdents: the runtime's own syscalls).
      "readlink", "open", "openat", "lseek", "fstat", "newfstatat", "getdents",
      "getdents64",
      // LeakSanitizer's StopTheWorld: a tracer process sharing our memory
      // (clone) attaches to every thread with ptrace, waits for each
      // (wait4), dies with its parent (prctl PR_SET_PDEATHSIG, getppid) and
      // is allowed to trace it (prctl PR_SET_PTRACER, PR_SET_DUMPABLE). Its
      // signals are blocked, so a call missing here kills it with SIGSYS
      // silently and the exit hangs.
      "clone", "ptrace", "wait4", "prctl", "getppid", "sched_yield",
      "rt_sigaction", "rt_sigprocmask", "tgkill", "kill", "exit", "exit_group",
      "mmap", "munmap", "mprotect", "madvise"};
  // Whether stderr is a terminal (coloured reports).
  list.AllowWithArg("ioctl", 1, TCGETS);
  return list;
}

}  // namespace gcushare
