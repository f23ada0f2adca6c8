// Which malloc serves this process, and its one tuning, for the daemons
// that link gperftools' tcmalloc (//third_party:tcmalloc).
//
// The extender links tcmalloc: its start-up decodes a list of every pod
// (400 MB of JSON at 150,000 pods) into many small objects, and tcmalloc's
// per-thread caches cut that CPU by a fifth against glibc's malloc
// (docs/startup.md). The sanitizer configurations keep the system malloc
// (their runtimes replace it).
//
// Thread-safe. Looked up at run time (dlsym), so a binary without tcmalloc
// needs nothing of it and gets the "system malloc" answers.
#ifndef GCUSHARE_BASE_ALLOCATOR_H_
#define GCUSHARE_BASE_ALLOCATOR_H_

#include <cstddef>
#include <string>

namespace gcushare::base {

// "tcmalloc <major>.<minor>" when gperftools' tcmalloc is loaded (it
// exports tc_version), else "system malloc".
std::string AllocatorName();

// Bounds the free memory all threads' caches may hold together
// (tcmalloc.max_total_thread_cache_bytes; tcmalloc's default is 32 MiB).
// A daemon with many worker threads that each allocate a little keeps
// that much more resident otherwise. True when set; false under another
// allocator (nothing changes).
bool LimitThreadCaches(size_t bytes);

}  // namespace gcushare::base

#endif  // GCUSHARE_BASE_ALLOCATOR_H_
