#include "kube/token_source.h"

#include <gtest/gtest.h>

#include <cstdio>

#include "base/testing/fake_clock.h"
#include "testing/files.h"

namespace gcushare::kube {
namespace {

using ::gcushare::testing::MakeTempDir;
using ::gcushare::testing::WriteFileOrDie;

TEST(FileTokenSourceTest, RereadsOnlyAfterTheInterval) {
  const std::string path = MakeTempDir() + "/token";
  WriteFileOrDie(path, "first\n");
  base::FakeClock clock;
  FileTokenSource tokens(path, &clock, std::chrono::seconds(60));
  EXPECT_EQ(tokens.Token().value(), "first");

  WriteFileOrDie(path, "second");
  clock.Advance(std::chrono::seconds(59));
  EXPECT_EQ(tokens.Token().value(), "first");  // Not re-read yet.
  clock.Advance(std::chrono::seconds(1));
  EXPECT_EQ(tokens.Token().value(), "second");
}

TEST(FileTokenSourceTest, RefreshRereadsAtOnceAndSaysWhetherItChanged) {
  const std::string path = MakeTempDir() + "/token";
  WriteFileOrDie(path, "first");
  base::FakeClock clock;
  FileTokenSource tokens(path, &clock);
  EXPECT_EQ(tokens.Token().value(), "first");
  EXPECT_FALSE(tokens.Refresh());
  WriteFileOrDie(path, "rotated");
  EXPECT_TRUE(tokens.Refresh());
  EXPECT_EQ(tokens.Token().value(), "rotated");
}

TEST(FileTokenSourceTest, KeepsTheLastGoodTokenWhenTheFileVanishes) {
  const std::string path = MakeTempDir() + "/token";
  WriteFileOrDie(path, "good");
  base::FakeClock clock;
  FileTokenSource tokens(path, &clock, std::chrono::seconds(1));
  EXPECT_EQ(tokens.Token().value(), "good");
  std::remove(path.c_str());
  clock.Advance(std::chrono::seconds(5));
  EXPECT_EQ(tokens.Token().value(), "good");
  WriteFileOrDie(path, "   ");  // Empty after trimming.
  clock.Advance(std::chrono::seconds(5));
  EXPECT_EQ(tokens.Token().value(), "good");
}

TEST(FileTokenSourceTest, FallbackUntilTheFileIsReadableAndErrorWithout) {
  const std::string dir = MakeTempDir();
  base::FakeClock clock;
  FileTokenSource with_fallback(dir + "/absent", &clock,
                                std::chrono::seconds(60), "fallback");
  EXPECT_EQ(with_fallback.Token().value(), "fallback");

  FileTokenSource without(dir + "/absent", &clock);
  StatusOr<std::string> token = without.Token();
  ASSERT_FALSE(token.ok());
  EXPECT_NE(token.status().message().find(dir + "/absent"), std::string::npos);
}

TEST(StaticTokenSourceTest, NeverChanges) {
  StaticTokenSource tokens("fixed");
  EXPECT_EQ(tokens.Token().value(), "fixed");
  EXPECT_FALSE(tokens.Refresh());
}

}  // namespace
}  // namespace gcushare::kube
