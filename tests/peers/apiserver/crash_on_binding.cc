#include "tests/peers/apiserver/crash_on_binding.h"

#include <signal.h>
#include <unistd.h>

namespace gcushare::apiserver {
namespace {

bool EndsWith(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

StatusOr<CrashPhase> ParseCrashPhase(const std::string& text) {
  if (text == "before-commit") return CrashPhase::kBeforeCommit;
  if (text == "after-commit") return CrashPhase::kAfterCommit;
  return InvalidArgumentError("crash phase \"" + text +
                              "\": want before-commit or after-commit");
}

bool IsBindingPost(const std::string& method, const std::string& path) {
  return method == "POST" && path.rfind("/api/v1/namespaces/", 0) == 0 &&
         (EndsWith(path, "/binding") || EndsWith(path, "/bindings"));
}

void CrashOnBinding::Install(ServerOptions* options) {
  if (nth_ <= 0) return;
  auto hook = [this](const std::string& method, const std::string& path) {
    Observe(method, path);
    return 0;
  };
  if (phase_ == CrashPhase::kBeforeCommit) {
    options->fail_before_handle = hook;
  } else {
    options->fail_after_commit = hook;
  }
}

void CrashOnBinding::Observe(const std::string& method,
                             const std::string& path) {
  if (!IsBindingPost(method, path)) return;
  if (seen_.fetch_add(1) + 1 != nth_) return;
  const std::string line =
      std::string("crash-on-binding: SIGKILL ") +
      (phase_ == CrashPhase::kBeforeCommit ? "before-commit" : "after-commit") +
      " of Binding #" + std::to_string(nth_) + " POST " + path + "\n";
  // One write(2), unbuffered: the line is out before the process dies.
  (void)!::write(STDERR_FILENO, line.data(), line.size());
  ::kill(::getpid(), SIGKILL);
}

}  // namespace gcushare::apiserver
