#include "daemon/logging.h"

#include <gtest/gtest.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "testing/files.h"

namespace gcushare {
namespace {

using ::gcushare::testing::MakeTempDir;
using ::gcushare::testing::ReadFileOrEmpty;
using ::gcushare::testing::WriteFileOrDie;

TEST(LoggingTest, ParsesEveryLevelName) {
  for (const std::string& name : LogLevelNames()) {
    EXPECT_TRUE(ParseLogLevel(name).ok()) << name;
  }
  StatusOr<spdlog::level::level_enum> bad = ParseLogLevel("verbose");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("verbose"), std::string::npos);
  EXPECT_NE(bad.status().message().find("trace, debug"), std::string::npos);
}

TEST(LoggingTest, WritesToComponentFileInNestedDir) {
  std::string dir = MakeTempDir() + "/a/b";
  LogOptions options;
  options.dir = dir;
  options.to_stderr = false;
  StatusOr<std::string> file = InitLogging("gcushare-test", options);
  ASSERT_TRUE(file.ok()) << file.status();
  EXPECT_EQ(*file, dir + "/gcushare-test.log");
  spdlog::info("hello {}", 42);
  spdlog::debug("not at info level");
  std::string text = ReadFileOrEmpty(*file);
  EXPECT_NE(text.find("info gcushare-test: hello 42"), std::string::npos)
      << text;
  EXPECT_EQ(text.find("not at info level"), std::string::npos);
}

TEST(LoggingTest, RotatesAtSizeCap) {
  std::string dir = MakeTempDir();
  LogOptions options;
  options.dir = dir;
  options.to_stderr = false;
  options.max_file_bytes = 4096;
  options.max_files = 2;
  ASSERT_TRUE(InitLogging("rot", options).ok());
  for (int i = 0; i < 500; ++i)
    spdlog::info("line {} {}", i, std::string(40, 'x'));
  spdlog::default_logger()->flush();
  EXPECT_TRUE(std::filesystem::exists(dir + "/rot.1.log"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/rot.2.log"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/rot.3.log"));
  EXPECT_LE(std::filesystem::file_size(dir + "/rot.log"), 4096u);
}

TEST(LoggingTest, UnwritableDirFallsBackToStderr) {
  // A path under a regular file can never be a directory, even for root.
  std::string base = MakeTempDir();
  std::string blocker = base + "/file";
  WriteFileOrDie(blocker, "x");
  LogOptions options;
  options.dir = blocker + "/logs";
  StatusOr<std::string> file = InitLogging("fallback", options);
  ASSERT_TRUE(file.ok());
  EXPECT_EQ(*file, "");
}

TEST(LoggingTest, BadLevelIsAnError) {
  LogOptions options;
  options.dir = "";
  options.level = "loud";
  EXPECT_EQ(InitLogging("x", options).status().code(),
            StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace gcushare
