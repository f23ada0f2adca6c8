#include "base/allocator.h"

#include <dlfcn.h>

namespace gcushare::base {

std::string AllocatorName() {
  // gperftools: const char* tc_version(int* major, int* minor,
  // const char** patch). Looked up rather than linked, so that a binary
  // without tcmalloc needs nothing of it.
  using TcVersion = const char* (*)(int*, int*, const char**);
  void* symbol = dlsym(RTLD_DEFAULT, "tc_version");
  if (symbol == nullptr) return "system malloc";
  int major = 0;
  int minor = 0;
  const char* patch = nullptr;
  reinterpret_cast<TcVersion>(symbol)(&major, &minor, &patch);
  return "tcmalloc " + std::to_string(major) + "." + std::to_string(minor);
}

}  // namespace gcushare::base
