// One GCUShare daemon or stand-in peer running as its own process for the
// end-to-end tests and the demo. Its stdout and stderr go to a file (not a
// pipe), so a chatty process never blocks on a full pipe however long it
// runs, and the operator can read the file afterwards.
//
// Ownership: owns the child; the destructor SIGKILLs and reaps it. The child
// also gets SIGKILL when the process that started it dies (PR_SET_PDEATHSIG),
// so a crashed test or an interrupted demo leaves nothing behind.
// Thread-safety: one thread drives a Component.
// Failure: methods return a Status naming the component and quoting the end
// of its output.
#ifndef GCUSHARE_TESTS_E2E_COMPONENT_H_
#define GCUSHARE_TESTS_E2E_COMPONENT_H_

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

#include "status/status.h"

namespace gcushare::e2e {

class Component {
 public:
  // `name` labels errors; `output_path` receives stdout+stderr (appended, so
  // a restart keeps the earlier run's lines).
  Component(std::string name, std::string output_path);
  ~Component();
  Component(const Component&) = delete;
  Component& operator=(const Component&) = delete;

  // Starts argv[0] with `argv`. FailedPrecondition when already running.
  Status Start(std::vector<std::string> argv);
  // Start() with the argv of the last start.
  Status Restart();
  // Waits until the output written since the last start contains `needle`.
  // DeadlineExceeded when it does not in time; Unavailable when the process
  // exits first.
  Status WaitForOutput(const std::string& needle,
                       std::chrono::milliseconds timeout);
  // SIGTERM, then waits (SIGKILL after `timeout`); the exit code, or an
  // error when the process had to be killed or died of a signal.
  StatusOr<int> Stop(
      std::chrono::milliseconds timeout = std::chrono::seconds(30));
  // SIGKILL and reap: a crash.
  void Kill();
  // True while the child has not been reaped (an exit is noticed here).
  bool Running();

  const std::string& name() const { return name_; }
  const std::string& output_path() const { return output_path_; }
  pid_t pid() const { return pid_; }
  // Everything the process wrote since the last start.
  std::string Output() const;

 private:
  std::string Tail() const;  // The last lines of Output(), for errors.

  const std::string name_;
  const std::string output_path_;
  std::vector<std::string> argv_;
  pid_t pid_ = -1;
  long start_offset_ = 0;  // Size of the output file at the last start.
};

}  // namespace gcushare::e2e

#endif  // GCUSHARE_TESTS_E2E_COMPONENT_H_
