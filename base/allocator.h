// Which malloc serves this process, for the start line and for tests that
// check a binary links the allocator its BUILD names.
//
// The extender links gperftools' tcmalloc (//third_party:tcmalloc): its
// start-up decodes a list of every pod (400 MB of JSON at 150,000 pods)
// into many small objects, and tcmalloc's per-thread caches cut that
// decode's CPU by a sixth against glibc's malloc (docs/startup.md). The
// sanitizer configurations keep the system malloc (their runtimes replace
// it).
//
// Thread-safe; no side effects.
#ifndef GCUSHARE_BASE_ALLOCATOR_H_
#define GCUSHARE_BASE_ALLOCATOR_H_

#include <string>

namespace gcushare::base {

// "tcmalloc <major>.<minor>" when gperftools' tcmalloc is loaded (it
// exports tc_version), else "system malloc".
std::string AllocatorName();

}  // namespace gcushare::base

#endif  // GCUSHARE_BASE_ALLOCATOR_H_
