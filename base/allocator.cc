#include "base/allocator.h"

#include <dlfcn.h>

namespace gcushare::base {

std::string AllocatorName() {
  // gperftools: const char* tc_version(int* major, int* minor,
  // const char** patch).
  using TcVersion = const char* (*)(int*, int*, const char**);
  void* symbol = dlsym(RTLD_DEFAULT, "tc_version");
  if (symbol == nullptr) return "system malloc";
  int major = 0;
  int minor = 0;
  const char* patch = nullptr;
  reinterpret_cast<TcVersion>(symbol)(&major, &minor, &patch);
  return "tcmalloc " + std::to_string(major) + "." + std::to_string(minor);
}

bool LimitThreadCaches(size_t bytes) {
  // gperftools' C interface (gperftools/malloc_extension_c.h):
  // int MallocExtension_SetNumericProperty(const char* property,
  // size_t value), 1 when the property is known and set.
  using SetProperty = int (*)(const char*, size_t);
  void* symbol = dlsym(RTLD_DEFAULT, "MallocExtension_SetNumericProperty");
  if (symbol == nullptr) return false;
  return reinterpret_cast<SetProperty>(symbol)(
             "tcmalloc.max_total_thread_cache_bytes", bytes) == 1;
}

}  // namespace gcushare::base
