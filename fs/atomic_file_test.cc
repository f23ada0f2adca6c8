#include "fs/atomic_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/files.h"

namespace gcushare::fs {
namespace {

using ::gcushare::testing::MakeTempDir;
using ::gcushare::testing::ReadFileOrEmpty;
using ::gcushare::testing::WriteFileOrDie;
using ::testing::HasSubstr;
using ::testing::StartsWith;

std::vector<std::string> ListDir(const std::string& dir) {
  std::vector<std::string> names;
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return names;
  while (struct dirent* e = readdir(d)) {
    std::string name = e->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

struct stat StatOrDie(const std::string& path) {
  struct stat st;
  EXPECT_EQ(stat(path.c_str(), &st), 0) << path;
  return st;
}

TEST(AtomicFileTest, WritesNewFileWithMode0644WhateverTheUmask) {
  std::string dir = MakeTempDir();
  std::string path = dir + "/enflame.com-gcu.json";
  mode_t old_umask = umask(0077);
  StatusOr<WriteOutcome> outcome = WriteFileAtomically(path, "{\"a\":1}\n");
  umask(old_umask);
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(*outcome, WriteOutcome::kWritten);
  EXPECT_EQ(ReadFileOrEmpty(path), "{\"a\":1}\n");
  EXPECT_EQ(StatOrDie(path).st_mode & 07777, 0644u);
  EXPECT_EQ(ListDir(dir), std::vector<std::string>{"enflame.com-gcu.json"});
}

TEST(AtomicFileTest, SameBytesAreNotRewritten) {
  std::string dir = MakeTempDir();
  std::string path = dir + "/spec.json";
  ASSERT_TRUE(WriteFileAtomically(path, "v1").ok());
  // Backdate the file so that any rewrite would show in its mtime.
  struct timespec times[2] = {{1000, 0}, {1000, 0}};
  ASSERT_EQ(utimensat(AT_FDCWD, path.c_str(), times, 0), 0);
  struct stat before = StatOrDie(path);

  StatusOr<WriteOutcome> outcome = WriteFileAtomically(path, "v1");
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(*outcome, WriteOutcome::kUnchanged);
  struct stat after = StatOrDie(path);
  EXPECT_EQ(after.st_ino, before.st_ino);
  EXPECT_EQ(after.st_mtim.tv_sec, 1000);
  EXPECT_EQ(after.st_mtim.tv_nsec, 0);
}

TEST(AtomicFileTest, NewBytesReplaceTheFileThroughANewInode) {
  std::string dir = MakeTempDir();
  std::string path = dir + "/spec.json";
  ASSERT_TRUE(WriteFileAtomically(path, "version one, longer").ok());
  ino_t first_inode = StatOrDie(path).st_ino;
  StatusOr<WriteOutcome> outcome = WriteFileAtomically(path, "v2");
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(*outcome, WriteOutcome::kWritten);
  EXPECT_EQ(ReadFileOrEmpty(path), "v2");
  EXPECT_NE(StatOrDie(path).st_ino, first_inode);
  EXPECT_EQ(ListDir(dir), std::vector<std::string>{"spec.json"});
}

TEST(AtomicFileTest, DifferentModeWithSameBytesIsRewritten) {
  std::string dir = MakeTempDir();
  std::string path = dir + "/spec.json";
  ASSERT_TRUE(WriteFileAtomically(path, "same").ok());
  WriteOptions options;
  options.mode = 0600;
  StatusOr<WriteOutcome> outcome = WriteFileAtomically(path, "same", options);
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(*outcome, WriteOutcome::kWritten);
  EXPECT_EQ(StatOrDie(path).st_mode & 07777, 0600u);
}

TEST(AtomicFileTest, WriterKilledBeforeRenameLeavesOldFileIntact) {
  std::string dir = MakeTempDir();
  std::string path = dir + "/enflame.com-gcu.json";
  const std::string old_contents = "{\"cdiVersion\":\"0.5.0\"}\n";
  ASSERT_TRUE(WriteFileAtomically(path, old_contents).ok());

  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    WriteOptions options;
    options.before_rename = [] { raise(SIGKILL); };
    (void)WriteFileAtomically(path, "new version that never lands", options);
    _exit(3);  // Not reached: the hook kills the child.
  }
  int wait_status = 0;
  ASSERT_EQ(waitpid(child, &wait_status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(wait_status)) << "child exited normally";
  EXPECT_EQ(WTERMSIG(wait_status), SIGKILL);

  EXPECT_EQ(ReadFileOrEmpty(path), old_contents);
  // The killed writer left its complete temp file, hidden from CDI scanners.
  std::vector<std::string> names = ListDir(dir);
  ASSERT_EQ(names.size(), 2u);
  EXPECT_EQ(names[1], "enflame.com-gcu.json");
  EXPECT_THAT(names[0], StartsWith(".enflame.com-gcu.json.tmp-"));
  EXPECT_EQ(ReadFileOrEmpty(dir + "/" + names[0]),
            "new version that never lands");

  StatusOr<WriteOutcome> outcome = WriteFileAtomically(path, "third");
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(*outcome, WriteOutcome::kWritten);
  EXPECT_EQ(ReadFileOrEmpty(path), "third");
  EXPECT_EQ(ListDir(dir), std::vector<std::string>{"enflame.com-gcu.json"});
}

TEST(AtomicFileTest, LeftoversAreRemovedEvenWhenUnchangedAndOnlyForTheTarget) {
  std::string dir = MakeTempDir();
  std::string path = dir + "/a.json";
  ASSERT_TRUE(WriteFileAtomically(path, "x").ok());
  WriteFileOrDie(dir + "/.a.json.tmp-AbC123", "partial");
  WriteFileOrDie(dir + "/.b.json.tmp-AbC123", "another target's");
  WriteFileOrDie(dir + "/.a.json.tmp-toolongname", "not ours");

  StatusOr<WriteOutcome> outcome = WriteFileAtomically(path, "x");
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(*outcome, WriteOutcome::kUnchanged);
  EXPECT_EQ(ListDir(dir),
            (std::vector<std::string>{".a.json.tmp-toolongname",
                                      ".b.json.tmp-AbC123", "a.json"}));
}

TEST(AtomicFileTest, ParentIsARegularFile) {
  std::string dir = MakeTempDir();
  std::string blocker = dir + "/not-a-dir";
  WriteFileOrDie(blocker, "keep me");
  StatusOr<WriteOutcome> outcome =
      WriteFileAtomically(blocker + "/spec.json", "x");
  ASSERT_FALSE(outcome.ok());
  EXPECT_THAT(outcome.status().message(), HasSubstr(blocker));
  EXPECT_THAT(outcome.status().message(), HasSubstr("Not a directory"));
  EXPECT_EQ(ReadFileOrEmpty(blocker), "keep me");
  EXPECT_EQ(ListDir(dir), std::vector<std::string>{"not-a-dir"});
}

TEST(AtomicFileTest, MissingDirectory) {
  std::string dir = MakeTempDir() + "/missing";
  StatusOr<WriteOutcome> outcome = WriteFileAtomically(dir + "/spec.json", "x");
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(outcome.status().message(), HasSubstr(dir));
  EXPECT_THAT(outcome.status().message(),
              HasSubstr("No such file or directory"));
}

TEST(AtomicFileTest, TargetThatIsADirectoryIsRefused) {
  std::string dir = MakeTempDir();
  std::string path = dir + "/spec.json";
  ASSERT_EQ(mkdir(path.c_str(), 0755), 0);
  StatusOr<WriteOutcome> outcome = WriteFileAtomically(path, "x");
  ASSERT_FALSE(outcome.ok());
  EXPECT_THAT(outcome.status().message(), HasSubstr(path));
  EXPECT_THAT(outcome.status().message(), HasSubstr("not a regular file"));
  EXPECT_TRUE(S_ISDIR(StatOrDie(path).st_mode));
}

TEST(AtomicFileTest, FailedRenameKeepsOldFileAndRemovesNothingElse) {
  std::string dir = MakeTempDir();
  std::string path = dir + "/spec.json";
  ASSERT_TRUE(WriteFileAtomically(path, "old").ok());
  WriteOptions options;
  // Sabotage: the temp file vanishes before the rename.
  options.before_rename = [&dir] {
    for (const std::string& name : ListDir(dir)) {
      if (name.rfind(".spec.json.tmp-", 0) == 0) {
        unlink(std::string(dir).append("/").append(name).c_str());
      }
    }
  };
  StatusOr<WriteOutcome> outcome = WriteFileAtomically(path, "new", options);
  ASSERT_FALSE(outcome.ok());
  EXPECT_THAT(outcome.status().message(), HasSubstr("cannot replace " + path));
  EXPECT_EQ(ReadFileOrEmpty(path), "old");
  EXPECT_EQ(ListDir(dir), std::vector<std::string>{"spec.json"});
}

TEST(AtomicFileTest, PathWithoutFileNameIsRefused) {
  std::string dir = MakeTempDir();
  StatusOr<WriteOutcome> outcome = WriteFileAtomically(dir + "/", "x");
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.status().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(ListDir(dir).empty());
}

TEST(AtomicFileTest, TempFilePrefixIsHiddenAndNotAJsonOrYamlName) {
  EXPECT_EQ(TempFilePrefix("/var/run/cdi/enflame.com-gcu.json"),
            "/var/run/cdi/.enflame.com-gcu.json.tmp-");
  EXPECT_EQ(TempFilePrefix("spec.yaml"), ".spec.yaml.tmp-");
}

}  // namespace
}  // namespace gcushare::fs
