#include "testing/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace gcushare::testing {
namespace {

using Clock = std::chrono::steady_clock;

std::vector<char*> ToArgv(const std::vector<std::string>& argv) {
  std::vector<char*> out;
  out.reserve(argv.size() + 1);
  for (const std::string& a : argv) out.push_back(const_cast<char*>(a.c_str()));
  out.push_back(nullptr);
  return out;
}

void DecodeWaitStatus(int status, ProcessResult* result) {
  if (WIFEXITED(status)) {
    result->exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result->exit_code = -1;
    result->term_signal = WTERMSIG(status);
  }
}

// Child side of fork: unblock signals the test may have blocked, wire fds,
// exec. Never returns.
[[noreturn]] void ExecChild(const std::vector<std::string>& argv, int in_fd,
                            int out_fd, int err_fd) {
  sigset_t all;
  sigfillset(&all);
  sigprocmask(SIG_UNBLOCK, &all, nullptr);
  if (in_fd >= 0) dup2(in_fd, STDIN_FILENO);
  dup2(out_fd, STDOUT_FILENO);
  dup2(err_fd, STDERR_FILENO);
  std::vector<char*> args = ToArgv(argv);
  execv(args[0], args.data());
  std::fprintf(stderr, "exec %s: %s\n", args[0], std::strerror(errno));
  _exit(127);
}

}  // namespace

StatusOr<ProcessResult> RunProcess(const std::vector<std::string>& argv,
                                   std::string_view input,
                                   std::chrono::milliseconds timeout) {
  int in[2], out[2], err[2];
  if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0 ||
      pipe2(err, O_CLOEXEC) != 0) {
    return ErrnoToStatus(errno, "pipe");
  }
  pid_t pid = fork();
  if (pid < 0) return ErrnoToStatus(errno, "fork");
  if (pid == 0) ExecChild(argv, in[0], out[1], err[1]);
  close(in[0]);
  close(out[1]);
  close(err[1]);
  // Inputs here are small; a failed write just means the child did not read.
  signal(SIGPIPE, SIG_IGN);
  (void)!write(in[1], input.data(), input.size());
  close(in[1]);

  ProcessResult result;
  const auto deadline = Clock::now() + timeout;
  bool out_open = true, err_open = true, timed_out = false;
  char buf[4096];
  while (out_open || err_open) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - Clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    pollfd fds[2] = {{out_open ? out[0] : -1, POLLIN, 0},
                     {err_open ? err[0] : -1, POLLIN, 0}};
    int n = poll(fds, 2, static_cast<int>(left.count()));
    if (n < 0 && errno == EINTR) continue;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].revents == 0) continue;
      ssize_t got = read(fds[i].fd, buf, sizeof(buf));
      if (got <= 0) {
        (i == 0 ? out_open : err_open) = false;
      } else {
        (i == 0 ? result.out : result.err).append(buf, got);
      }
    }
  }
  close(out[0]);
  close(err[0]);
  if (timed_out) kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  DecodeWaitStatus(status, &result);
  if (timed_out) {
    return DeadlineExceededError(argv[0] +
                                 " did not finish; stderr: " + result.err);
  }
  return result;
}

ChildProcess::~ChildProcess() {
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  if (fd_ >= 0) close(fd_);
}

Status ChildProcess::Start(const std::vector<std::string>& argv) {
  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0) return ErrnoToStatus(errno, "pipe");
  pid_t pid = fork();
  if (pid < 0) return ErrnoToStatus(errno, "fork");
  if (pid == 0) ExecChild(argv, -1, out[1], out[1]);
  close(out[1]);
  pid_ = pid;
  fd_ = out[0];
  return OkStatus();
}

bool ChildProcess::ReadSome(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  pollfd pfd = {fd_, POLLIN, 0};
  int n;
  // A signal delivered to the test process (another thread's child ending,
  // say) interrupts poll(): wait again for the time left.
  do {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - Clock::now());
    n = poll(&pfd, 1, static_cast<int>(std::max<int64_t>(left.count(), 0)));
  } while (n < 0 && errno == EINTR);
  if (n <= 0) return false;
  char buf[4096];
  ssize_t got;
  do {
    got = read(fd_, buf, sizeof(buf));
  } while (got < 0 && errno == EINTR);
  if (got <= 0) return false;
  output_.append(buf, got);
  return true;
}

Status ChildProcess::WaitForOutput(std::string_view needle,
                                   std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (output_.find(needle) == std::string::npos) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - Clock::now());
    if (left.count() <= 0 || !ReadSome(left)) {
      return DeadlineExceededError("\"" + std::string(needle) +
                                   "\" never appeared; output so far:\n" +
                                   output_);
    }
  }
  return OkStatus();
}

Status ChildProcess::Signal(int signo) {
  if (pid_ <= 0) return FailedPreconditionError("no child");
  if (kill(pid_, signo) != 0) return ErrnoToStatus(errno, "kill");
  return OkStatus();
}

StatusOr<ProcessResult> ChildProcess::Wait(std::chrono::milliseconds timeout) {
  if (pid_ <= 0) return FailedPreconditionError("no child");
  const auto deadline = Clock::now() + timeout;
  // Drain output until EOF (the child exited and closed its end).
  while (true) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - Clock::now());
    if (left.count() <= 0 || !ReadSome(left)) break;
  }
  ProcessResult result;
  int status = 0;
  bool timed_out = false;
  // EOF comes when the child closes its output, a moment before it can be
  // reaped: wait for the exit itself, up to the deadline.
  while (waitpid(pid_, &status, WNOHANG) == 0) {
    if (Clock::now() >= deadline) {
      timed_out = true;
      kill(pid_, SIGKILL);
      waitpid(pid_, &status, 0);
      break;
    }
    poll(nullptr, 0, 5);
  }
  pid_ = -1;
  DecodeWaitStatus(status, &result);
  result.out = output_;
  if (timed_out) {
    return DeadlineExceededError("child did not exit; output:\n" + output_);
  }
  return result;
}

std::string RunfilePath(std::string_view workspace_relative) {
  // Tests: TEST_SRCDIR. Programs started by `bazel run` or by hand: the
  // runfiles tree beside the executable (RUNFILES_DIR when set).
  std::string base;
  if (const char* srcdir = std::getenv("TEST_SRCDIR")) {
    base = srcdir;
  } else if (const char* runfiles = std::getenv("RUNFILES_DIR")) {
    base = runfiles;
  } else {
    char exe[4096];
    ssize_t n = ::readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    base = n > 0 ? std::string(exe, n) + ".runfiles" : ".";
  }
  const char* workspace = std::getenv("TEST_WORKSPACE");
  base += "/";
  base += workspace ? workspace : "gcushare";
  base += "/";
  base += workspace_relative;
  return base;
}

}  // namespace gcushare::testing
