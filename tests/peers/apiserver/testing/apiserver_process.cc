#include "tests/peers/apiserver/testing/apiserver_process.h"

#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <utility>

#include "testing/files.h"

namespace gcushare::apiserver::testing {
namespace {

constexpr char kListening[] = "listening on http://127.0.0.1:";

}  // namespace

ApiserverProcess::ApiserverProcess(std::vector<std::string> flags)
    : flags_(std::move(flags)), log_dir_(gcushare::testing::MakeTempDir()) {}

ApiserverProcess::~ApiserverProcess() = default;  // ~ChildProcess kills.

Status ApiserverProcess::Start(int port) {
  if (child_ != nullptr) {
    return FailedPreconditionError("the stand-in API server is running");
  }
  std::vector<std::string> argv = {
      gcushare::testing::RunfilePath("tests/peers/apiserver"),
      "--port=" + std::to_string(port), "--log-dir=" + log_dir_};
  argv.insert(argv.end(), flags_.begin(), flags_.end());
  auto child = std::make_unique<gcushare::testing::ChildProcess>();
  GCUSHARE_RETURN_IF_ERROR(child->Start(argv));
  Status listening = child->WaitForOutput(kListening, std::chrono::seconds(30));
  if (!listening.ok()) {
    last_output_ = child->output();
    return UnavailableError("the stand-in API server did not start: " +
                            last_output_);
  }
  // The line is one flushed write to a pipe, so it arrives whole.
  const std::string& out = child->output();
  const int bound =
      std::atoi(out.c_str() + out.find(kListening) + sizeof(kListening) - 1);
  if (bound <= 0 || (port != 0 && bound != port)) {
    return InternalError("unexpected listening line: " + out);
  }
  port_ = bound;
  child_ = std::move(child);
  return OkStatus();
}

Status ApiserverProcess::Signal(int signo) {
  if (child_ == nullptr) return FailedPreconditionError("not running");
  return child_->Signal(signo);
}

Status ApiserverProcess::Kill() {
  if (child_ == nullptr) return FailedPreconditionError("not running");
  GCUSHARE_RETURN_IF_ERROR(child_->Signal(SIGKILL));
  auto result = child_->Wait(std::chrono::seconds(30));
  last_output_ = child_->output();
  child_.reset();
  if (!result.ok()) return result.status();
  if (result->term_signal != SIGKILL) {
    return InternalError("the stand-in API server ended before SIGKILL: " +
                         last_output_);
  }
  return OkStatus();
}

Status ApiserverProcess::Stop() {
  if (child_ == nullptr) return FailedPreconditionError("not running");
  GCUSHARE_RETURN_IF_ERROR(child_->Signal(SIGTERM));
  auto result = child_->Wait(std::chrono::seconds(30));
  last_output_ = child_->output();
  child_.reset();
  if (!result.ok()) return result.status();
  if (result->exit_code != 0) {
    return InternalError("the stand-in API server exited with " +
                         std::to_string(result->exit_code) + ": " +
                         last_output_);
  }
  return OkStatus();
}

std::string ApiserverProcess::url() const {
  return "http://127.0.0.1:" + std::to_string(port_);
}

std::string ApiserverProcess::output() const {
  return child_ != nullptr ? child_->output() : last_output_;
}

}  // namespace gcushare::apiserver::testing
