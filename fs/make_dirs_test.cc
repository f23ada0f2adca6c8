#include "fs/make_dirs.h"

#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "gtest/gtest.h"
#include "testing/files.h"

namespace gcushare::fs {
namespace {

using ::gcushare::testing::MakeTempDir;
using ::gcushare::testing::ReadFileOrEmpty;
using ::gcushare::testing::WriteFileOrDie;

bool IsDir(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

TEST(MakeDirsTest, CreatesMissingParents) {
  std::string root = MakeTempDir();
  std::string path = root + "/var/run/cdi";
  Status status = MakeDirectories(path);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_TRUE(IsDir(root + "/var"));
  EXPECT_TRUE(IsDir(path));
  // Again: already there.
  EXPECT_TRUE(MakeDirectories(path).ok());
  EXPECT_TRUE(MakeDirectories(path + "/").ok());
}

TEST(MakeDirsTest, TrailingAndDoubleSlashes) {
  std::string root = MakeTempDir();
  Status status = MakeDirectories(root + "//a//b/");
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_TRUE(IsDir(root + "/a/b"));
}

TEST(MakeDirsTest, ModeIsApplied) {
  std::string root = MakeTempDir();
  mode_t old = umask(0);
  Status status = MakeDirectories(root + "/d", 0700);
  umask(old);
  ASSERT_TRUE(status.ok()) << status;
  struct stat st;
  ASSERT_EQ(stat((root + "/d").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0700u);
}

TEST(MakeDirsTest, ParentIsAFile) {
  std::string root = MakeTempDir();
  WriteFileOrDie(root + "/file", "keep");
  Status status = MakeDirectories(root + "/file/cdi");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(),
            "cannot create directory " + root + "/file/cdi: Not a directory");
  EXPECT_EQ(ReadFileOrEmpty(root + "/file"), "keep");
}

TEST(MakeDirsTest, PathIsAFile) {
  std::string root = MakeTempDir();
  WriteFileOrDie(root + "/file", "keep");
  Status status = MakeDirectories(root + "/file");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(),
            "cannot create directory " + root + "/file: Not a directory");
  EXPECT_EQ(ReadFileOrEmpty(root + "/file"), "keep");
}

TEST(MakeDirsTest, EmptyPath) {
  EXPECT_EQ(MakeDirectories("").code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace gcushare::fs
