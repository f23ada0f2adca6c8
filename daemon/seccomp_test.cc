#include "daemon/seccomp.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/ioctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "daemon/sanitizer_syscalls.h"

namespace gcushare {
namespace {

// Exit codes the confined child reports.
constexpr int kConfineFailed = 10;
constexpr int kForbiddenSucceeded = 11;
constexpr int kWrongErrno = 12;
constexpr int kAllowedFailed = 13;

// A small list: memory, threads, files; no sockets.
SyscallAllowList SmallList() {
  return {"brk",     "mmap",       "munmap",         "mprotect",
          "madvise", "clone",      "futex",          "set_robust_list",
          "rseq",    "gettid",     "exit",           "exit_group",
          "read",    "write",      "openat",         "close",
          "fstat",   "newfstatat", "rt_sigprocmask", "rt_sigreturn",
          "getpid",  "tgkill"};
}

// Forks a child that confines itself to `allowed`, then runs `body`, whose
// return value becomes the child's exit code.
template <typename Body>
int RunConfined(const SyscallAllowList& allowed, Body body) {
  pid_t pid = fork();
  if (pid == 0) {
    if (!ConfineToSyscalls(allowed).ok()) _exit(kConfineFailed);
    _exit(body());
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status)) return -WTERMSIG(status);
  return WEXITSTATUS(status);
}

TEST(SeccompTest, ForbiddenSyscallFailsWithEperm) {
  int code = RunConfined(SmallList(), [] {
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd >= 0) return kForbiddenSucceeded;
    return errno == EPERM ? 0 : kWrongErrno;
  });
  EXPECT_EQ(code, 0);
}

TEST(SeccompTest, AllowListedSyscallsStillWork) {
  int code = RunConfined(SmallList(), [] {
    // Files, memory and threads keep working.
    int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return kAllowedFailed;
    char buf[64];
    if (read(fd, buf, sizeof(buf)) <= 0) return kAllowedFailed;
    close(fd);
    bool ran = false;
    std::thread t([&] { ran = true; });
    t.join();
    return ran ? 0 : kAllowedFailed;
  });
  EXPECT_EQ(code, 0);
}

TEST(SeccompTest, AddedGroupAllowsSockets) {
  SyscallAllowList allowed = SmallList();
  allowed.Add({"socket"});
  int code = RunConfined(allowed, [] {
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0) return kAllowedFailed;
    close(fd);
    return 0;
  });
  EXPECT_EQ(code, 0);
}

TEST(SeccompTest, ExecIsDeniedWhenNotListed) {
  int code = RunConfined(SmallList(), [] {
    char* argv[] = {const_cast<char*>("/bin/true"), nullptr};
    execv("/bin/true", argv);
    return errno == EPERM ? 0 : kWrongErrno;
  });
  EXPECT_EQ(code, 0);
}

TEST(SeccompTest, UnknownNamesAreSkipped) {
  SyscallAllowList allowed = SmallList();
  allowed.Allow("no_such_syscall_anywhere");
  int code = RunConfined(allowed, [] { return 0; });
  EXPECT_EQ(code, 0);
}

// A denied call is reported once, by name, on stderr, and still fails
// with EPERM.
TEST(SeccompTest, DeniedSyscallIsReportedOnceByName) {
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(pipe_fds[1], STDERR_FILENO);
    close(pipe_fds[0]);
    if (!ConfineToSyscalls(SmallList()).ok()) _exit(kConfineFailed);
    for (int i = 0; i < 3; ++i) {
      int fd = socket(AF_UNIX, SOCK_STREAM, 0);
      if (fd >= 0) _exit(kForbiddenSucceeded);
      if (errno != EPERM) _exit(kWrongErrno);
    }
    _exit(0);
  }
  close(pipe_fds[1]);
  std::string err;
  char buf[256];
  for (ssize_t n; (n = read(pipe_fds[0], buf, sizeof buf)) > 0;) {
    err.append(buf, static_cast<size_t>(n));
  }
  close(pipe_fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
#if defined(__x86_64__)
  const std::string line = "seccomp: denied system call socket (";
  ASSERT_NE(err.find(line), std::string::npos) << err;
  EXPECT_EQ(err.find(line), err.rfind(line)) << err;  // Once.
#endif
}

// ioctl narrowed to one request: that request runs, any other is denied.
TEST(SeccompTest, NarrowedCallAllowsOnlyTheListedArgument) {
  SyscallAllowList allowed = SmallList();
  allowed.AllowWithArg("ioctl", 1, FIONREAD);
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  int code = RunConfined(allowed, [&] {
    int pending = -1;
    if (ioctl(fds[0], FIONREAD, &pending) != 0) return kAllowedFailed;
    struct winsize ws {};
    if (ioctl(fds[0], TIOCGWINSZ, &ws) == 0) return kForbiddenSucceeded;
    return errno == EPERM ? 0 : kWrongErrno;
  });
  EXPECT_EQ(code, 0);
  close(fds[0]);
  close(fds[1]);
}

TEST(SeccompTest, ForbiddenCallsAreRefusedAndNothingIsLoaded) {
  for (const char* name : {"execve", "ptrace", "mount"}) {
    SyscallAllowList allowed = SmallList();
    allowed.Allow(name);
    int code = RunConfined(allowed, [] { return 0; });
    EXPECT_EQ(code, kConfineFailed) << name;
    // In this process too: refused before anything is loaded.
    Status status = ConfineToSyscalls(allowed);
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << name;
    EXPECT_NE(status.message().find(name), std::string::npos) << status;
  }
  // Still unconfined: a socket opens.
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  EXPECT_GE(fd, 0);
  close(fd);
}

// Release builds add nothing to a daemon's list: ptrace, which only the
// sanitizer runtimes' group names, stays refused.
TEST(SeccompTest, ReleaseBuildStillRefusesPtrace) {
  if (SanitizerRuntimeBuild())
    GTEST_SKIP() << "sanitizer build: ptrace is allowed";
  int code = RunConfined(SmallList(), [] {
    if (ptrace(PTRACE_TRACEME, 0, nullptr, nullptr) == 0) {
      return kForbiddenSucceeded;
    }
    return errno == EPERM ? 0 : kWrongErrno;
  });
  EXPECT_EQ(code, 0);
}

// The sanitizer group needs ptrace, which no daemon may name itself.
TEST(SeccompTest, SanitizerGroupIsNotADaemonList) {
  const std::vector<std::string> forbidden = ForbiddenSyscalls();
  EXPECT_NE(std::find(forbidden.begin(), forbidden.end(), "ptrace"),
            forbidden.end());
  EXPECT_TRUE(SanitizerRuntimeSyscalls().AllowsAnyArgs("ptrace"));
}

// Under ASan a confined process that exits through exit() runs
// LeakSanitizer's check (a ptrace-ing tracer over /proc/self/task) and
// exits with its own code; without the sanitizer group the tracer dies of
// SIGSYS and the exit never returns.
TEST(SeccompTest, SanitizerBuildExitsCleanlyWhenConfined) {
  if (!SanitizerRuntimeBuild()) GTEST_SKIP() << "release build: no sanitizer";
  int code = RunConfined(SmallList(), [] {
    std::thread t([] { std::vector<int> v(100); });
    t.join();
    std::exit(0);  // Runs the sanitizer's exit-time checks.
    return kAllowedFailed;
  });
  EXPECT_EQ(code, 0);
}

TEST(SeccompTest, AllowListComposes) {
  SyscallAllowList a = {"read"};
  a.AllowWithArg("ioctl", 1, 7);
  SyscallAllowList b = {"write"};
  b.AllowWithArg("ioctl", 1, 9);
  a.Add(b);
  EXPECT_TRUE(a.AllowsAnyArgs("read"));
  EXPECT_TRUE(a.AllowsAnyArgs("write"));
  EXPECT_FALSE(a.AllowsAnyArgs("ioctl"));
  EXPECT_TRUE(a.Allows("ioctl"));
  EXPECT_TRUE(a.AllowsArg("ioctl", 1, 7));
  EXPECT_TRUE(a.AllowsArg("ioctl", 1, 9));
  EXPECT_FALSE(a.AllowsArg("ioctl", 1, 8));
  EXPECT_EQ(a.size(), 3u);
  a.Allow("ioctl");
  EXPECT_TRUE(a.AllowsArg("ioctl", 1, 8));
  EXPECT_EQ(a.size(), 3u);
}

}  // namespace
}  // namespace gcushare
