#include "base/allocator.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

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

// Read back through the same C interface the setter uses.
size_t MaxThreadCacheBytes() {
  using GetProperty = int (*)(const char*, size_t*);
  void* symbol = dlsym(RTLD_DEFAULT, "MallocExtension_GetNumericProperty");
  size_t value = 0;
  if (symbol == nullptr ||
      reinterpret_cast<GetProperty>(symbol)(
          "tcmalloc.max_total_thread_cache_bytes", &value) != 1) {
    return 0;
  }
  return value;
}

TEST(AllocatorTest, LimitsThreadCachesUnderTcmallocOnly) {
  const bool limited = LimitThreadCaches(size_t{8} << 20);
  if (Expected() == "tcmalloc") {
    EXPECT_TRUE(limited);
    EXPECT_EQ(MaxThreadCacheBytes(), size_t{8} << 20);
  } else {
    EXPECT_FALSE(limited);
    EXPECT_EQ(MaxThreadCacheBytes(), 0u);
  }
}

TEST(AllocatorTest, ServesSmallAndLargeBlocks) {
  // Small and large blocks, so that both the per-thread caches and the
  // page heap serve (a broken interposition crashes here).
  std::vector<std::unique_ptr<char[]>> blocks;
  for (size_t size = 1; size <= (size_t{1} << 24); size *= 4) {
    blocks.emplace_back(new char[size]);
    blocks.back()[size - 1] = 1;
  }
  EXPECT_EQ(blocks.size(), 13u);
}

}  // namespace
}  // namespace gcushare::base
