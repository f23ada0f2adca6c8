// RoundRobinFront: a TCP front for several HTTP backends on this machine,
// as a Kubernetes Service with kube-proxy is: each new connection goes to
// the next backend that is ready (its readiness path answered 200 at the
// last probe, every `probe_period`); a connection stays with its backend
// until either side closes it. For the HA benchmark (docs/ha.md).
//
// Not for production code. Ownership: owns its threads and sockets; the
// destructor Stop()s. Thread-safety: SetPort() from any thread.
#ifndef GCUSHARE_TESTS_E2E_ROUND_ROBIN_FRONT_H_
#define GCUSHARE_TESTS_E2E_ROUND_ROBIN_FRONT_H_

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "status/status.h"

namespace gcushare::e2e {

class RoundRobinFront {
 public:
  // `backends` 127.0.0.1 ports (0: none yet), probed at `ready_path`.
  RoundRobinFront(size_t backends, std::string ready_path,
                  std::chrono::milliseconds probe_period);
  ~RoundRobinFront();

  Status Start();  // Listens on a free port of 127.0.0.1.
  void Stop();
  int port() const { return port_; }
  void SetPort(size_t backend, int port);

 private:
  void Accept();
  void Probe();
  void Relay(int client);
  int Connect();  // A connected socket to the next ready backend, or -1.

  const std::string ready_path_;
  const std::chrono::milliseconds probe_period_;
  std::vector<std::atomic<int>> ports_;
  std::vector<std::atomic<bool>> ready_;
  std::atomic<size_t> next_{0};
  std::atomic<bool> stopping_{false};
  int listen_fd_ = -1;
  int port_ = 0;
  std::thread acceptor_, prober_;
  std::mutex relays_mu_;
  std::vector<std::thread> relays_;
};

}  // namespace gcushare::e2e

#endif  // GCUSHARE_TESTS_E2E_ROUND_ROBIN_FRONT_H_
