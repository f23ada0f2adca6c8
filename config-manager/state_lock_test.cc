#include "config-manager/state_lock.h"

#include <gtest/gtest.h>

#include <string>

#include "testing/scratch_dir.h"

namespace gcushare::config_manager {
namespace {

TEST(StateLockTest, ExclusiveUntilReleased) {
  testing::ScratchDir dir;
  const std::string path = dir.path() + "/lock";
  {
    auto first = StateLock::Acquire(path);
    ASSERT_TRUE(first.ok()) << first.status();
    EXPECT_TRUE(first->held());
    // flock locks belong to the open file description: a second open in
    // the same process contends as another process would.
    auto second = StateLock::TryAcquire(path);
    ASSERT_FALSE(second.ok());
    EXPECT_EQ(second.status().code(), StatusCode::kUnavailable);
    EXPECT_NE(second.status().message().find("held by another process"),
              std::string::npos)
        << second.status();
  }
  auto after = StateLock::TryAcquire(path);
  EXPECT_TRUE(after.ok()) << after.status();
}

TEST(StateLockTest, UnopenablePathIsAClearError) {
  auto lock = StateLock::Acquire("/nonexistent-gcushare-dir/lock");
  ASSERT_FALSE(lock.ok());
  EXPECT_NE(lock.status().message().find("/nonexistent-gcushare-dir/lock"),
            std::string::npos);
}

}  // namespace
}  // namespace gcushare::config_manager
