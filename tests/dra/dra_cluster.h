// DraCluster: a DRA node on this machine, every piece over its real
// transport, for the end-to-end tests, the benchmark and the demo of
// gcushare-dra-driver:
//   - the stand-in kube-apiserver (in-process, HTTP on loopback) serving
//     resource.k8s.io/v1, with its feature gates;
//   - the real gcushare-dra-driver binary as a child process (kubeconfig,
//     fake cards, its own kubelet root and CDI directory under /tmp);
//   - the stand-in kubelet's DRA side (in-process: registration through
//     the registry directory, gRPC on unix sockets, the CDI runtime
//     stand-in), on a fake clock for its 30 s wipe;
//   - the stand-in scheduler (in-process) for claims and pods.
// The DeviceClasses are the chart's (configs/charts/gcushare-device-plugin
// templates/deviceclass.yaml).
//
// Ownership: owns every piece; the destructor stops them and removes its
// directory. Thread-safety: use from the test's thread, except that
// RunPod/StopPod may be called from several threads at once.
// Failure: methods return a Status naming the piece that failed.
#ifndef GCUSHARE_TESTS_DRA_DRA_CLUSTER_H_
#define GCUSHARE_TESTS_DRA_DRA_CLUSTER_H_

#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/testing/fake_clock.h"
#include "kube/curl_kube_client.h"
#include "status/status.h"
#include "testing/subprocess.h"
#include "tests/peers/apiserver/api_server.h"
#include "tests/peers/dra_kubelet/stand_in_dra_kubelet.h"
#include "tests/peers/dra_scheduler/dra_scheduler.h"
#include "tests/peers/dra_scheduler/share_id.h"

namespace gcushare::testing {

struct DraClusterOptions {
  int cards = 2;
  uint64_t card_mib = 16384;
  std::string memory_unit = "1";
  // kube-apiserver's DRAConsumableCapacity gate (on by default in 1.36).
  bool consumable_capacity_gate = true;
  std::string node_name = "node-a";
};

class DraCluster {
 public:
  explicit DraCluster(DraClusterOptions options = {});
  ~DraCluster();
  DraCluster(const DraCluster&) = delete;
  DraCluster& operator=(const DraCluster&) = delete;

  // API server, Node, DeviceClasses, driver, kubelet; returns once the
  // kubelet has registered the driver and done its start-up wipe, and the
  // slices are published (again).
  Status Start();

  // The driver process.
  Status StartDriver();
  // SIGTERM (clean) or SIGKILL, then wait for the exit; returns its output.
  StatusOr<ProcessResult> StopDriver(bool kill = false);
  const ChildProcess& driver() const { return *driver_; }
  pid_t driver_pid() const { return driver_->pid(); }
  // The kubelet: stop and start a new one; returns once it has registered
  // the driver, wiped the node's slices (as the real one does at start) and
  // the driver has published them again.
  Status RestartKubelet();
  peers::dra_kubelet::StandInDraKubelet& kubelet() { return *kubelet_; }
  base::FakeClock& kubelet_clock() { return clock_; }

  // Objects.
  Status CreateClaimTemplate(const std::string& name,
                             const std::string& memory /* "" = whole */);
  // A pod with one container using a claim from `claim_template`.
  Status CreatePodWithTemplate(const std::string& pod,
                               const std::string& claim_template);
  // A pod with one container asking `count` of enflame.com/gcu-count.
  Status CreatePodWithCardCount(const std::string& pod, int count);
  StatusOr<std::vector<dra_scheduler::PodOutcome>> SchedulePending();
  StatusOr<nlohmann::json> GetPod(const std::string& pod);
  StatusOr<nlohmann::json> GetClaimOf(const std::string& pod);
  StatusOr<std::vector<nlohmann::json>> Slices();
  StatusOr<std::vector<nlohmann::json>> NodeEvents();
  // The kubelet starts / stops the pod (Prepare / Unprepare through the
  // driver, CDI applied by the runtime stand-in).
  StatusOr<peers::dra_kubelet::PodRun> RunPod(const std::string& pod);
  Status StopPod(const std::string& pod);
  Status DeletePod(const std::string& pod);

  // Waits (real time, bounded) until `done` holds.
  bool WaitFor(const std::function<bool()>& done,
               std::chrono::milliseconds limit = std::chrono::seconds(30));
  // Waits until the node's published slices hold `devices` devices.
  Status WaitForSlices(size_t devices);

  kube::KubeClient& client() { return *client_; }
  const std::string& dir() const { return dir_; }
  std::string cdi_dir() const { return dir_ + "/cdi"; }
  std::string kubelet_root() const { return dir_ + "/kubelet"; }
  std::string checkpoint_path() const;
  const DraClusterOptions& options() const { return options_; }

 private:
  Status StartKubelet();

  DraClusterOptions options_;
  std::string dir_;
  std::unique_ptr<apiserver::ApiServer> server_;
  std::unique_ptr<kube::CurlKubeClient> client_;
  std::unique_ptr<ChildProcess> driver_;
  base::FakeClock clock_;
  std::unique_ptr<peers::dra_kubelet::StandInDraKubelet> kubelet_;
  dra_scheduler::SequentialShareIds share_ids_;
  std::unique_ptr<dra_scheduler::DraScheduler> scheduler_;
};

}  // namespace gcushare::testing

#endif  // GCUSHARE_TESTS_DRA_DRA_CLUSTER_H_
