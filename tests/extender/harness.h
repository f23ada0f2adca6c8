// Test support: run gcushare-scheduler-extender as a real process against
// a stand-in API server, and talk to it over HTTP.
//
// Not for production code. Thread-safety: an ExtenderProcess is driven from
// one thread; Post()/Get() may be called from many.
#ifndef GCUSHARE_TESTS_EXTENDER_HARNESS_H_
#define GCUSHARE_TESTS_EXTENDER_HARNESS_H_

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "status/status.h"
#include "testing/kubeconfig.h"  // WriteKubeconfig, for the harness's users.
#include "testing/subprocess.h"

namespace gcushare::testing {

struct HttpAnswer {
  int status = 0;  // 0: no connection.
  std::string body;
};

HttpAnswer HttpGet(int port, const std::string& path);
HttpAnswer HttpPost(int port, const std::string& path, const std::string& body);

class ExtenderProcess {
 public:
  // Starts the extender on a free port with logs in `log_dir`, and waits
  // until it listens and its cache has synced (/healthz 200; only until it
  // listens when !wait_synced). May be called again after Stop() or Kill()
  // (a restart).
  Status Start(const std::string& kubeconfig, const std::string& log_dir,
               const std::vector<std::string>& extra_flags = {},
               bool wait_synced = true);
  // SIGTERM and wait; the exit code.
  StatusOr<int> Stop();
  // SIGKILL, as a crash would.
  void Kill();

  int port() const { return port_; }
  HttpAnswer Get(const std::string& path) const;  // Under the prefix.
  HttpAnswer Post(const std::string& path, const std::string& body) const;
  const std::string& output() const { return child_->output(); }

 private:
  std::unique_ptr<ChildProcess> child_ = std::make_unique<ChildProcess>();
  int port_ = 0;
};

}  // namespace gcushare::testing

#endif  // GCUSHARE_TESTS_EXTENDER_HARNESS_H_
