#include "tests/extender/harness.h"

#include <httplib.h>
#include <signal.h>

#include <chrono>
#include <fstream>
#include <regex>
#include <thread>

#include "contract/names.h"

namespace gcushare::testing {

HttpAnswer HttpGet(int port, const std::string& path) {
  httplib::Client client("127.0.0.1", port);
  client.set_read_timeout(30, 0);
  auto res = client.Get(path.c_str());
  if (!res) return {};
  return {res->status, res->body};
}

HttpAnswer HttpPost(int port, const std::string& path,
                    const std::string& body) {
  httplib::Client client("127.0.0.1", port);
  client.set_read_timeout(60, 0);
  client.set_write_timeout(60, 0);
  auto res = client.Post(path.c_str(), body, "application/json");
  if (!res) return {};
  return {res->status, res->body};
}

Status ExtenderProcess::Start(const std::string& kubeconfig,
                              const std::string& log_dir,
                              const std::vector<std::string>& extra_flags,
                              bool wait_synced) {
  std::vector<std::string> argv = {
      RunfilePath("extender/gcushare-scheduler-extender"),
      "--kubeconfig=" + kubeconfig,
      "--port=0",
      "--address=127.0.0.1",
      "--log-dir=" + log_dir,
  };
  argv.insert(argv.end(), extra_flags.begin(), extra_flags.end());
  child_ = std::make_unique<ChildProcess>();
  GCUSHARE_RETURN_IF_ERROR(child_->Start(argv));
  GCUSHARE_RETURN_IF_ERROR(
      child_->WaitForOutput("listening on http://", std::chrono::seconds(30)));
  GCUSHARE_RETURN_IF_ERROR(
      child_->WaitForOutput(std::string(contract::kExtenderPathPrefix) + "\n",
                            std::chrono::seconds(30)));
  std::smatch match;
  static const std::regex kListening(R"(listening on http://[0-9.]+:(\d+))");
  if (!std::regex_search(child_->output(), match, kListening)) {
    return InternalError("no listening line in: " + child_->output());
  }
  port_ = std::stoi(match[1]);
  if (!wait_synced) return OkStatus();
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    if (Get("/healthz").status == 200) return OkStatus();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return DeadlineExceededError("extender cache never synced: " +
                               child_->output());
}

StatusOr<int> ExtenderProcess::Stop() {
  GCUSHARE_RETURN_IF_ERROR(child_->Signal(SIGTERM));
  GCUSHARE_ASSIGN_OR_RETURN(ProcessResult result, child_->Wait());
  return result.exit_code;
}

void ExtenderProcess::Kill() {
  (void)child_->Signal(SIGKILL);
  (void)child_->Wait();
}

HttpAnswer ExtenderProcess::Get(const std::string& path) const {
  return HttpGet(port_, std::string(contract::kExtenderPathPrefix) + path);
}

HttpAnswer ExtenderProcess::Post(const std::string& path,
                                 const std::string& body) const {
  return HttpPost(port_, std::string(contract::kExtenderPathPrefix) + path,
                  body);
}

}  // namespace gcushare::testing
