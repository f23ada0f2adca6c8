// CrashOnBinding: the stand-in API server's --crash-on-binding test knob.
// The process SIGKILLs itself upon the Nth Binding POST (pods/<name>/binding
// or the legacy bindings collection), counted from its start, so that a test
// knows a Binding was in flight when the server died, without timing:
//   - before-commit: before the request is handled (nothing is written);
//   - after-commit: after it was handled, its write (if it succeeded)
//     committed and journaled to the state file, before the answer is sent
//     (the client sees the connection drop; the pod is bound).
// Just before dying it writes one line on stderr:
//   crash-on-binding: SIGKILL before-commit|after-commit of Binding #N POST
//   <path>
//
// Ownership: Install() hands the server hooks that point at this object,
// which must outlive the server. Thread-safety: the hooks are called
// concurrently from the server's workers; the count is atomic, so exactly
// one request is the Nth. Failure: ParseCrashPhase rejects unknown phases.
#ifndef GCUSHARE_TESTS_PEERS_APISERVER_CRASH_ON_BINDING_H_
#define GCUSHARE_TESTS_PEERS_APISERVER_CRASH_ON_BINDING_H_

#include <atomic>
#include <string>

#include "status/status.h"
#include "tests/peers/apiserver/api_server.h"

namespace gcushare::apiserver {

enum class CrashPhase { kBeforeCommit, kAfterCommit };

// "before-commit" or "after-commit"; InvalidArgument otherwise.
StatusOr<CrashPhase> ParseCrashPhase(const std::string& text);

// Whether `method` `path` creates a Binding.
bool IsBindingPost(const std::string& method, const std::string& path);

class CrashOnBinding {
 public:
  // `nth` >= 1: the Binding POST that kills the process; 0: never.
  CrashOnBinding(int nth, CrashPhase phase) : nth_(nth), phase_(phase) {}
  CrashOnBinding(const CrashOnBinding&) = delete;
  CrashOnBinding& operator=(const CrashOnBinding&) = delete;

  // Sets options->fail_before_handle or fail_after_commit (nothing when
  // nth is 0).
  void Install(ServerOptions* options);

 private:
  // Counts a Binding POST; kills the process when it is the Nth.
  void Observe(const std::string& method, const std::string& path);

  const int nth_;
  const CrashPhase phase_;
  std::atomic<int> seen_{0};
};

}  // namespace gcushare::apiserver

#endif  // GCUSHARE_TESTS_PEERS_APISERVER_CRASH_ON_BINDING_H_
