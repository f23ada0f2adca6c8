// HaCluster: several gcushare-scheduler-extender processes with leader
// election (docs/ha.md) against an in-process stand-in API server, called
// by the stand-in kube-scheduler (its own process) through a
// RoundRobinFront, as through a Service. Nodes are sharing nodes with their
// cards published and the resources the device plugin would report. For
// the HA benchmark and the HA chaos test.
//
// Not for production code. Ownership: owns the processes, the front and the
// server; the destructor kills what still runs. Thread-safety: drive from
// one thread; api() may be used from many. Failure: errors name the piece.
#ifndef GCUSHARE_TESTS_E2E_HA_CLUSTER_H_
#define GCUSHARE_TESTS_E2E_HA_CLUSTER_H_

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "status/status.h"
#include "tests/e2e/component.h"
#include "tests/e2e/round_robin_front.h"
#include "tests/peers/apiserver/testing/test_server.h"

namespace gcushare::e2e {

struct HaClusterOptions {
  int replicas = 3;
  std::vector<std::string> nodes = {"n1", "n2"};
  int cards = 8;
  uint64_t card_units = 16;
  // Extra extender flags (after --leader-elect and its namespace).
  std::vector<std::string> extender_flags = {"--shutdown-delay-duration=2s"};
  // kube-scheduler's --pod-max-in-unschedulable-pods-duration.
  std::string max_unschedulable = "5m";
};

class HaCluster {
 public:
  HaCluster();
  ~HaCluster();

  Status Start(HaClusterOptions options);
  // (Re)starts replica i and waits until it is ready (the front then sends
  // it connections).
  Status StartExtender(int i);
  void KillExtender(int i);           // SIGKILL.
  StatusOr<int> StopExtender(int i);  // SIGTERM; the exit code.
  // The replica that binds now, -1 when none (asked over HTTP).
  int Binder();
  void Stop();

  apiserver::testing::TestServer& api() { return api_; }
  const std::string& dir() const { return dir_; }
  int replicas() const { return options_.replicas; }
  Component& extender(int i) { return *extenders_[i]; }

 private:
  HaClusterOptions options_;
  apiserver::testing::TestServer api_;
  std::unique_ptr<RoundRobinFront> front_;
  std::string dir_, kubeconfig_;
  std::vector<std::unique_ptr<Component>> extenders_;
  std::vector<int> ports_;
  std::unique_ptr<Component> scheduler_;
};

}  // namespace gcushare::e2e

#endif  // GCUSHARE_TESTS_E2E_HA_CLUSTER_H_
