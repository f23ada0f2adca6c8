// Test support: the stand-in kube-apiserver binary (//tests/peers:apiserver)
// as a child process, for tests that talk to it over real HTTP the way a
// component does. Start() waits for its "listening on http://127.0.0.1:<port>"
// line; Kill() is a crash (SIGKILL), Restart() brings it back on the same
// port with the same flags (so a --state-file journal carries the objects and
// resourceVersions over).
//
// A test that uses this needs `data = ["//tests/peers:apiserver"]` (the
// library carries it). Not for production code.
// Ownership: owns the child process; the destructor SIGKILLs it if running.
// Thread-safety: one test thread per object.
// Failure: every method returns a Status carrying the child's output.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_TESTING_APISERVER_PROCESS_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_TESTING_APISERVER_PROCESS_H_

#include <memory>
#include <string>
#include <vector>

#include "status/status.h"
#include "testing/subprocess.h"

namespace gcushare::apiserver::testing {

class ApiserverProcess {
 public:
  // `flags`: everything but --port and --log-dir, e.g. {"--history=2"}.
  explicit ApiserverProcess(std::vector<std::string> flags = {});
  ~ApiserverProcess();
  ApiserverProcess(const ApiserverProcess&) = delete;
  ApiserverProcess& operator=(const ApiserverProcess&) = delete;

  // Starts the binary on `port` (0: a free one, read from its listening
  // line) and waits until it accepts connections.
  Status Start(int port = 0);
  // SIGKILL, then reap: a crash, nothing flushed or closed cleanly.
  Status Kill();
  // SIGTERM; an error unless it exits 0 in time.
  Status Stop();
  // Sends `signo` (SIGSTOP: a stalled server that accepts connections into
  // its backlog and never answers; SIGCONT: back).
  Status Signal(int signo);
  // Start() again on the port of the last start.
  Status Restart() { return Start(port_); }

  bool running() const { return child_ != nullptr; }
  int port() const { return port_; }
  // "http://127.0.0.1:<port>".
  std::string url() const;
  // What the current (or last) child printed so far.
  std::string output() const;

 private:
  const std::vector<std::string> flags_;
  const std::string log_dir_;
  std::unique_ptr<gcushare::testing::ChildProcess> child_;
  std::string last_output_;
  int port_ = 0;
};

}  // namespace gcushare::apiserver::testing

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_TESTING_APISERVER_PROCESS_H_
