// Test support: run our binaries as real processes and read what they say.
//
// Used by tests that check a binary end to end (flags, exit codes, logs,
// signals). Not for production code.
//
// Thread-safety: a ChildProcess is used from one thread.
#ifndef GCUSHARE_TESTING_SUBPROCESS_H_
#define GCUSHARE_TESTING_SUBPROCESS_H_

#include <sys/types.h>

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "status/status.h"

namespace gcushare::testing {

struct ProcessResult {
  int exit_code = -1;   // -1 when killed by a signal.
  int term_signal = 0;  // The signal that ended it, or 0.
  std::string out;
  std::string err;
};

// Runs argv[0] (a path) to completion, feeding `input` on stdin.
// Kills it with SIGKILL after `timeout` and returns DeadlineExceeded.
StatusOr<ProcessResult> RunProcess(
    const std::vector<std::string>& argv, std::string_view input = "",
    std::chrono::milliseconds timeout = std::chrono::seconds(60));

// A process running in the background, with stdout+stderr on one pipe.
class ChildProcess {
 public:
  ChildProcess() = default;
  ~ChildProcess();  // SIGKILLs and reaps the child if still running.
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  Status Start(const std::vector<std::string>& argv);

  // Reads output until `needle` appears (returns OK) or the child closes its
  // output or `timeout` passes (returns an error carrying what was read).
  Status WaitForOutput(std::string_view needle,
                       std::chrono::milliseconds timeout);

  Status Signal(int signo);

  // Waits for exit (SIGKILL after `timeout`) and drains the output.
  StatusOr<ProcessResult> Wait(
      std::chrono::milliseconds timeout = std::chrono::seconds(30));

  const std::string& output() const { return output_; }
  pid_t pid() const { return pid_; }

 private:
  bool ReadSome(std::chrono::milliseconds timeout);  // false on EOF/timeout.

  pid_t pid_ = -1;
  int fd_ = -1;
  std::string output_;
};

// Absolute path of a runfile, given its workspace-relative path
// ("cdi/cli/gcushare-cdi").
std::string RunfilePath(std::string_view workspace_relative);

}  // namespace gcushare::testing

#endif  // GCUSHARE_TESTING_SUBPROCESS_H_
