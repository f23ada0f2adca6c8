#include "base/allocator.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>

namespace gcushare::base {
namespace {

// The test binary links //third_party:tcmalloc, as the extender does; the
// expected allocator comes from the same select() (BUILD: env), so the
// sanitizer configurations, which keep the system malloc, expect that.
std::string Expected() {
  const char* expected = std::getenv("EXPECTED_ALLOCATOR");
  return expected == nullptr ? "" : expected;
}

TEST(AllocatorTest, NamesTheAllocatorTheBuildLinked) {
  const std::string name = AllocatorName();
  ASSERT_FALSE(Expected().empty());
  if (Expected() == "tcmalloc") {
    EXPECT_EQ(name.rfind("tcmalloc ", 0), 0u) << name;
    EXPECT_NE(name, "tcmalloc 0.0");
  } else {
    EXPECT_EQ(name, "system malloc");
  }
}

// A numeric property of tcmalloc's, read through the C interface the
// setter uses; 0 when there is no tcmalloc.
size_t Property(const char* name) {
  using GetProperty = int (*)(const char*, size_t*);
  void* symbol = dlsym(RTLD_DEFAULT, "MallocExtension_GetNumericProperty");
  size_t value = 0;
  if (symbol == nullptr ||
      reinterpret_cast<GetProperty>(symbol)(name, &value) != 1) {
    return 0;
  }
  return value;
}

TEST(AllocatorTest, LimitsThreadCachesUnderTcmallocOnly) {
  const bool limited = LimitThreadCaches(size_t{8} << 20);
  if (Expected() == "tcmalloc") {
    EXPECT_TRUE(limited);
    EXPECT_EQ(Property("tcmalloc.max_total_thread_cache_bytes"),
              size_t{8} << 20);
  } else {
    EXPECT_FALSE(limited);
    EXPECT_EQ(Property("tcmalloc.max_total_thread_cache_bytes"), 0u);
  }
}

// operator new is served by the allocator the build names: with tcmalloc,
// its count of bytes in use grows by a 16 MiB block while it is held.
TEST(AllocatorTest, OperatorNewGoesToTheNamedAllocator) {
  constexpr size_t kBlock = size_t{16} << 20;
  const size_t before = Property("generic.current_allocated_bytes");
  auto block = std::make_unique<char[]>(kBlock);
  block[kBlock - 1] = 1;
  const size_t during = Property("generic.current_allocated_bytes");
  if (Expected() == "tcmalloc") {
    EXPECT_GE(during, before + kBlock);
  } else {
    EXPECT_EQ(during, 0u);
  }
}

}  // namespace
}  // namespace gcushare::base
