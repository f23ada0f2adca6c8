// The system calls a sanitizer runtime (ASan, LSan, UBSan, TSan) makes
// inside an otherwise confined daemon, and whether this build has one.
//
// In sanitizer builds ConfineToSyscalls adds SanitizerRuntimeSyscalls() to
// every daemon's allow-list, after checking the daemon's own list against
// ForbiddenSyscalls(): LeakSanitizer's exit-time check stops the world with
// a ptrace-ing tracer thread, and the runtimes probe memory through a pipe,
// give each thread an alternate signal stack and read /proc/self. Release
// builds (SanitizerRuntimeBuild() false) never add the group, so their filters
// refuse ptrace and the rest as before.
//
// The group was derived by running a confined daemon under ASan+UBSan and
// under TSan and reading the "seccomp: denied system call <name>" lines
// (docs/development.md "Fuzzing and sanitizers").
//
// Thread-safety: pure functions.
#ifndef GCUSHARE_DAEMON_SANITIZER_SYSCALLS_H_
#define GCUSHARE_DAEMON_SANITIZER_SYSCALLS_H_

#include "daemon/seccomp.h"

namespace gcushare {

// True when this build has a sanitizer runtime: gcc's
// -fsanitize=address/thread (__SANITIZE_ADDRESS__, __SANITIZE_THREAD__),
// clang's __has_feature(address_sanitizer / thread_sanitizer /
// undefined_behavior_sanitizer), or gcc's -fsanitize=undefined, which gcc
// does not announce: daemon/BUILD then defines GCUSHARE_SANITIZE_UNDEFINED
// for this library (a select on that copt). .bazelrc's tsan config hides
// __SANITIZE_THREAD__ (system libraries' headers) and defines
// GCUSHARE_SANITIZE_THREAD instead. Decided when this library is compiled;
// false in release builds.
bool SanitizerRuntimeBuild();

// The calls the sanitizer runtimes need. Names ptrace, which
// ForbiddenSyscalls() lists: only ConfineToSyscalls adds this group, and
// only when SanitizerRuntimeBuild().
SyscallAllowList SanitizerRuntimeSyscalls();

}  // namespace gcushare

#endif  // GCUSHARE_DAEMON_SANITIZER_SYSCALLS_H_
