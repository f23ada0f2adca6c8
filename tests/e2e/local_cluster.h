// A whole GCUShare cluster on one machine, every piece its own process over
// its real transport (the README demo and the end-to-end tests use it):
//
//   stand-in kube-apiserver  <-HTTP->  gcushare-scheduler-extender
//          ^   ^   ^   ^                      ^  (filter/prioritize/bind)
//          |   |   |   +---- HTTP ---- stand-in kube-scheduler
//          |   |   +-------- HTTP ---- stand-in kubelet <-gRPC->
//          gcushare-device-plugin |   +------------ HTTP ----
//          gcushare-device-plugin (node annotations, pods)
//          +---------------- HTTP ---- stand-in NRI runtime <-ttrpc->
//          gcushare-nri-plugin
//
// One node (default "node-1") with the cards of a fake-cards file (default:
// configs/fake-cards.yaml, 8 cards of 16 GiB). The work directory holds the
// sockets, the CDI spec, stand-in device nodes, the API server's state file,
// every component's log (logs/<component>.log, via --log-dir) and its
// stdout+stderr (out/<component>.out).
//
// Ownership: owns the processes; the destructor stops them (SIGKILL when
// they do not stop in time) and removes the work directory unless
// keep_work_dir (or the environment variable GCUSHARE_E2E_KEEP is set, for
// debugging a failed test). Thread-safety: drive from one thread; client() may
// be used from many. Failure: errors are values naming the component and
// quoting its output.
#ifndef GCUSHARE_TESTS_E2E_LOCAL_CLUSTER_H_
#define GCUSHARE_TESTS_E2E_LOCAL_CLUSTER_H_

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "kube/kube_client.h"
#include "status/status.h"
#include "tests/e2e/component.h"

namespace gcushare::e2e {

enum class Piece {
  kApiserver,
  kExtender,
  kScheduler,
  kKubelet,
  kDevicePlugin,
  kNriRuntime,
  kNriPlugin,
};
inline constexpr Piece kAllPieces[] = {Piece::kApiserver,    Piece::kExtender,
                                       Piece::kScheduler,    Piece::kKubelet,
                                       Piece::kDevicePlugin, Piece::kNriRuntime,
                                       Piece::kNriPlugin};
// "apiserver", "extender", ...: the name used in file names and errors.
const char* PieceName(Piece piece);

struct ClusterOptions {
  std::string node_name = "node-1";
  std::string cards_file;         // Empty: configs/fake-cards.yaml.
  std::string memory_unit = "1";  // The device plugin's --memory-unit.
  std::string policy = "binpack";
  std::string work_dir;  // Empty: a new /tmp/gcushare-e2e.XXXXXX.
  bool keep_work_dir = false;
  std::string log_level = "info";
  // Where the binaries are; empty: the runfiles of this program.
  std::string runfiles_root;
  // Extra flags for a piece's first start only: a crash knob (the API
  // server's --crash-on-binding) must not fire again after the restart.
  std::map<Piece, std::vector<std::string>> first_start_flags;
};

// A container as the stand-in NRI runtime created it (one JSON line of its
// output): the adjusted spec with devices and env.
struct CreatedContainer {
  std::string pod;  // "namespace/name"
  std::string container;
  nlohmann::json spec;  // Null when the plugin refused; see error.
  std::string error;
};

class LocalCluster {
 public:
  // Starts every piece in dependency order and waits until each is ready:
  // the API server listens, the node exists, the extender's cache synced,
  // the device plugin registered with the kubelet and published the node's
  // cards, the NRI plugin registered with the runtime, the scheduler runs.
  static StatusOr<std::unique_ptr<LocalCluster>> Start(ClusterOptions options);
  ~LocalCluster();
  LocalCluster(const LocalCluster&) = delete;
  LocalCluster& operator=(const LocalCluster&) = delete;

  // SIGTERM to every piece, last started first; an error listing those that
  // did not exit 0, and any seccomp denial (CheckNoSeccompDenials).
  Status Stop();

  // An error quoting every "seccomp: denied system call" line any piece
  // wrote in any of its runs: a daemon's allow-list misses a call it makes.
  Status CheckNoSeccompDenials() const;

  // Restarts one piece as a crash would (SIGKILL, or SIGTERM when
  // `graceful`), with the same flags and port, and waits until it is ready
  // again.
  Status Restart(Piece piece, bool graceful = false);
  // SIGKILL and start again with the same flags and port, without waiting
  // until the piece is ready: a crash in the middle of a flow, after which
  // the caller waits on what it observes (pods bound, /healthz).
  Status Relaunch(Piece piece);

  Component& component(Piece piece) { return *components_.at(piece); }
  kube::KubeClient& client() { return *client_; }
  const ClusterOptions& options() const { return options_; }
  const std::string& work_dir() const { return options_.work_dir; }
  std::string log_dir() const { return options_.work_dir + "/logs"; }
  // The stand-in API server's --state-file (its journal).
  std::string apiserver_state_file() const {
    return options_.work_dir + "/apiserver.state";
  }
  std::string apiserver_url() const;
  std::string extender_url()
      const;  // http://127.0.0.1:<port>/gcushare-scheduler
  int extender_port() const { return extender_port_; }

  // GET <extender_url()><path>; the HTTP status and body.
  StatusOr<std::pair<int, std::string>> ExtenderGet(const std::string& path);

  Status CreatePod(const nlohmann::json& pod);
  StatusOr<nlohmann::json> GetPod(const std::string& ns,
                                  const std::string& name);
  Status DeletePod(const std::string& ns, const std::string& name);
  // Polls the pod until `done` holds; DeadlineExceeded quoting the pod's
  // last state (and `what`) otherwise.
  StatusOr<nlohmann::json> WaitForPod(
      const std::string& ns, const std::string& name,
      const std::function<bool(const nlohmann::json&)>& done,
      const std::string& what,
      std::chrono::milliseconds timeout = std::chrono::seconds(60));
  // The pod's events, oldest first.
  StatusOr<std::vector<nlohmann::json>> PodEvents(const std::string& ns,
                                                  const std::string& name);

  // Every container the stand-in runtime created so far (all its runs).
  std::vector<CreatedContainer> CreatedContainers() const;
  // Waits until the runtime created `container` of pod "ns/name".
  StatusOr<CreatedContainer> WaitForContainer(
      const std::string& pod, const std::string& container,
      std::chrono::milliseconds timeout = std::chrono::seconds(60));

 private:
  explicit LocalCluster(ClusterOptions options);
  Status StartPiece(Piece piece);
  Status WaitReady(Piece piece, size_t registrations_before);
  Status CreateNode();
  // Polls this cluster's node until `done` holds.
  StatusOr<nlohmann::json> WaitForNode(
      const std::function<bool(const nlohmann::json&)>& done);
  std::string Binary(const std::string& path) const;
  std::vector<std::string> Argv(Piece piece) const;
  size_t Count(Piece piece, const std::string& needle) const;

  ClusterOptions options_;
  bool made_work_dir_ = false;
  std::map<Piece, std::unique_ptr<Component>> components_;
  std::vector<Piece> started_;  // Start order.
  std::set<Piece> ever_started_;
  std::unique_ptr<kube::KubeClient> client_;
  int apiserver_port_ = 0;
  int extender_port_ = 0;
};

}  // namespace gcushare::e2e

#endif  // GCUSHARE_TESTS_E2E_LOCAL_CLUSTER_H_
