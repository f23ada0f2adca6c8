// Clang's thread-safety annotations
// (https://clang.llvm.org/docs/ThreadSafetyAnalysis.html) as macros, so the
// locking rules written beside guarded state are checked by the compiler:
// `bazel build --config=clang-tsa` builds with clang-14 and
// -Werror=thread-safety (scripts/test.sh runs it in CI).
//
// Under GCC (the default build) every macro expands to nothing. The standard
// library's std::mutex is not annotated: guard state with base::Mutex
// (base/mutex.h), which is.
//
//   GUARDED_BY(mu)        a member read or written only with `mu` held.
//   PT_GUARDED_BY(mu)     the pointee of a pointer member, likewise.
//   REQUIRES(mu)          the caller holds `mu` exclusively.
//   REQUIRES_SHARED(mu)   the caller holds `mu` at least shared.
//   EXCLUDES(mu)          the caller must not hold `mu` (the function takes
//   it). ACQUIRED_BEFORE/AFTER lock order between mutexes.
//   NO_THREAD_SAFETY_ANALYSIS  opts one function out; say why beside it.
#ifndef GCUSHARE_BASE_THREAD_ANNOTATIONS_H_
#define GCUSHARE_BASE_THREAD_ANNOTATIONS_H_

// Abseil's older header (absl/base/internal/thread_annotations.h, which
// gRPC's headers include) defines GUARDED_BY, PT_GUARDED_BY,
// ACQUIRED_BEFORE/AFTER and NO_THREAD_SAFETY_ANALYSIS the same way: those
// are defined here only when it has not.
#if defined(__clang__)
#define GCUSHARE_THREAD_ANNOTATION_(x) __attribute__((x))
#else
#define GCUSHARE_THREAD_ANNOTATION_(x)
#endif

#define CAPABILITY(x) GCUSHARE_THREAD_ANNOTATION_(capability(x))
#define SCOPED_CAPABILITY GCUSHARE_THREAD_ANNOTATION_(scoped_lockable)
#ifndef GUARDED_BY
#define GUARDED_BY(x) GCUSHARE_THREAD_ANNOTATION_(guarded_by(x))
#endif
#ifndef PT_GUARDED_BY
#define PT_GUARDED_BY(x) GCUSHARE_THREAD_ANNOTATION_(pt_guarded_by(x))
#endif
#ifndef ACQUIRED_BEFORE
#define ACQUIRED_BEFORE(...) \
  GCUSHARE_THREAD_ANNOTATION_(acquired_before(__VA_ARGS__))
#endif
#ifndef ACQUIRED_AFTER
#define ACQUIRED_AFTER(...) \
  GCUSHARE_THREAD_ANNOTATION_(acquired_after(__VA_ARGS__))
#endif
#define REQUIRES(...) \
  GCUSHARE_THREAD_ANNOTATION_(requires_capability(__VA_ARGS__))
#define REQUIRES_SHARED(...) \
  GCUSHARE_THREAD_ANNOTATION_(requires_shared_capability(__VA_ARGS__))
#define ACQUIRE(...) \
  GCUSHARE_THREAD_ANNOTATION_(acquire_capability(__VA_ARGS__))
#define ACQUIRE_SHARED(...) \
  GCUSHARE_THREAD_ANNOTATION_(acquire_shared_capability(__VA_ARGS__))
#define RELEASE(...) \
  GCUSHARE_THREAD_ANNOTATION_(release_capability(__VA_ARGS__))
#define RELEASE_SHARED(...) \
  GCUSHARE_THREAD_ANNOTATION_(release_shared_capability(__VA_ARGS__))
#define RELEASE_GENERIC(...) \
  GCUSHARE_THREAD_ANNOTATION_(release_generic_capability(__VA_ARGS__))
#define TRY_ACQUIRE(...) \
  GCUSHARE_THREAD_ANNOTATION_(try_acquire_capability(__VA_ARGS__))
#define TRY_ACQUIRE_SHARED(...) \
  GCUSHARE_THREAD_ANNOTATION_(try_acquire_shared_capability(__VA_ARGS__))
#define EXCLUDES(...) GCUSHARE_THREAD_ANNOTATION_(locks_excluded(__VA_ARGS__))
#define ASSERT_CAPABILITY(x) GCUSHARE_THREAD_ANNOTATION_(assert_capability(x))
#define ASSERT_SHARED_CAPABILITY(x) \
  GCUSHARE_THREAD_ANNOTATION_(assert_shared_capability(x))
#define RETURN_CAPABILITY(x) GCUSHARE_THREAD_ANNOTATION_(lock_returned(x))
#ifndef NO_THREAD_SAFETY_ANALYSIS
#define NO_THREAD_SAFETY_ANALYSIS \
  GCUSHARE_THREAD_ANNOTATION_(no_thread_safety_analysis)
#endif

#endif  // GCUSHARE_BASE_THREAD_ANNOTATIONS_H_
