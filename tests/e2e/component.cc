#include "tests/e2e/component.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>
#include <utility>

namespace gcushare::e2e {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kPoll = std::chrono::milliseconds(20);

long FileSize(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? static_cast<long>(st.st_size) : 0;
}

std::string Describe(int wait_status) {
  if (WIFEXITED(wait_status)) {
    return "exited with code " + std::to_string(WEXITSTATUS(wait_status));
  }
  if (WIFSIGNALED(wait_status)) {
    return std::string("died of signal ") + strsignal(WTERMSIG(wait_status));
  }
  return "ended";
}

}  // namespace

Component::Component(std::string name, std::string output_path)
    : name_(std::move(name)), output_path_(std::move(output_path)) {}

Component::~Component() { Kill(); }

Status Component::Start(std::vector<std::string> argv) {
  if (pid_ > 0) return FailedPreconditionError(name_ + " is running");
  if (argv.empty()) return InvalidArgumentError(name_ + ": empty command");
  int out = ::open(output_path_.c_str(),
                   O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (out < 0) {
    return ErrnoToStatus(errno, name_ + ": opening " + output_path_);
  }
  start_offset_ = FileSize(output_path_);
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (std::string& arg : argv) args.push_back(arg.data());
  args.push_back(nullptr);
  const pid_t parent = ::getpid();
  pid_t pid = ::fork();
  if (pid < 0) {
    int err = errno;
    ::close(out);
    return ErrnoToStatus(err, name_ + ": fork");
  }
  if (pid == 0) {
    // Child: only async-signal-safe calls until exec.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    // Its own process group: a Ctrl-C meant for the demo does not reach the
    // pieces, which the demo then stops in order.
    ::setpgid(0, 0);
    ::dup2(out, STDOUT_FILENO);
    ::dup2(out, STDERR_FILENO);
    int null = ::open("/dev/null", O_RDONLY);
    if (null >= 0) ::dup2(null, STDIN_FILENO);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::execv(args[0], args.data());
    const char message[] = "exec failed\n";
    (void)!::write(STDERR_FILENO, message, sizeof(message) - 1);
    ::_exit(127);
  }
  ::close(out);
  pid_ = pid;
  argv_ = std::move(argv);
  return OkStatus();
}

Status Component::Restart() {
  if (argv_.empty()) return FailedPreconditionError(name_ + " never started");
  return Start(argv_);
}

bool Component::Running() {
  if (pid_ <= 0) return false;
  int status = 0;
  if (::waitpid(pid_, &status, WNOHANG) == pid_) {
    pid_ = -1;
    std::ofstream(output_path_, std::ios::app)
        << "[e2e] " << name_ << " " << Describe(status) << "\n";
    return false;
  }
  return true;
}

std::string Component::Output() const {
  std::ifstream in(output_path_);
  in.seekg(start_offset_);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string Component::Tail() const {
  std::string text = Output();
  constexpr size_t kMax = 3000;
  if (text.size() > kMax) text = "..." + text.substr(text.size() - kMax);
  return text;
}

Status Component::WaitForOutput(const std::string& needle,
                                std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (true) {
    if (Output().find(needle) != std::string::npos) return OkStatus();
    if (!Running()) {
      return UnavailableError(name_ + " is not running (waiting for \"" +
                              needle + "\"); its output:\n" + Tail());
    }
    if (Clock::now() > deadline) {
      return DeadlineExceededError(name_ + " did not print \"" + needle +
                                   "\"; its output:\n" + Tail());
    }
    std::this_thread::sleep_for(kPoll);
  }
}

StatusOr<int> Component::Stop(std::chrono::milliseconds timeout) {
  if (!Running()) return FailedPreconditionError(name_ + " is not running");
  ::kill(pid_, SIGTERM);
  const auto deadline = Clock::now() + timeout;
  int status = 0;
  while (::waitpid(pid_, &status, WNOHANG) == 0) {
    if (Clock::now() > deadline) {
      Kill();
      return DeadlineExceededError(name_ + " ignored SIGTERM; killed:\n" +
                                   Tail());
    }
    std::this_thread::sleep_for(kPoll);
  }
  pid_ = -1;
  std::ofstream(output_path_, std::ios::app)
      << "[e2e] " << name_ << " " << Describe(status) << "\n";
  if (!WIFEXITED(status)) {
    return InternalError(name_ + " " + Describe(status) + ":\n" + Tail());
  }
  return WEXITSTATUS(status);
}

void Component::Kill() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  ::waitpid(pid_, &status, 0);
  pid_ = -1;
  std::ofstream(output_path_, std::ios::app)
      << "[e2e] " << name_ << " killed (SIGKILL)\n";
}

}  // namespace gcushare::e2e
