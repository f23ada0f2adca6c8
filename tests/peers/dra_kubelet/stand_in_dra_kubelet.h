// StandInDraKubelet: the DRA half of a kubelet (1.34-1.36), for tests and
// demos of gcushare-dra-driver (shared/DRA.md section 1). Faithful where a
// plugin can tell:
//   - discovery (registry_watcher.h): sockets in the registry directory,
//     at Start and by inotify, dot-files ignored; a socket re-created under
//     the same path is registered again;
//   - registration (operation_generator.go): dial (10 s), GetInfo with a
//     1 s deadline, plugin_validation.h, then NotifyRegistrationStatus
//     (5 s): true, or false with the kubelet's error for a bad type, a bad
//     version list, an empty name or an endpoint already registered. A
//     failed GetInfo (error or deadline) is NOT notified, as in the
//     kubelet. Every failed attempt is retried like the kubelet's
//     reconciler, after 0.5 s doubling up to 2 min 2 s on the injected
//     clock. A removed registration socket deregisters the plugin;
//   - the DRA calls (dra_client.h) go to the most recent connected plugin
//     of the driver (else the most recent one), with the chosen version's
//     stub and a 45 s deadline;
//   - pods (manager.go): RunPod() resolves and checks the pod's claims
//     (pod_claims.h), prepares those not prepared yet in one batch per
//     driver, keeps the kubelet's claim records (claim -> devices with CDI
//     IDs and share IDs, pods using it), then gives each container the CDI
//     IDs of the requests it references and applies them with the CDI
//     runtime stand-in (tests/peers/cdi_runtime); StopPod() unprepares the
//     claims no other pod uses;
//   - health (KEP-4680): for a plugin listing "v1alpha1.DRAResourceHealth"
//     (and the ResourceHealthStatus gate on), NodeWatchResources is kept
//     open; health_cache.h ages entries on the injected clock; a stream
//     that ends clears the driver's health and is reopened 5 s later;
//   - ResourceSlice wiping (dra_plugin_manager.go): at Start all slices of
//     the node (spec.nodeName=<node>) are deleted once the Node object can
//     be read; a driver without any connected plugin (the gRPC channel is
//     not READY, or its last plugin deregistered) has its slices of the
//     node (spec.nodeName + spec.driver) deleted 30 s later on the injected
//     clock unless a plugin of the driver connects first. Deletion lists
//     with the field selectors and DELETEs each object (the KubeClient has
//     no collection delete); failures are retried (1 s doubling, 5 min cap).
//
// Time: every delay above runs on the injected clock through a DelayQueue
// (delay_queue.h): after FakeClock::Advance(), RunDueTimers() runs what is
// due on the caller's thread; gRPC deadlines are real time.
//
// Ownership: owns its threads (watcher, registration worker, delay queue,
// a connection monitor and a health reader per plugin) and gRPC channels;
// Stop() (or the destructor) joins them. The clock and the KubeClient are
// borrowed and must outlive the object. Thread-safety: every public method
// may be called from any thread.
#ifndef GCUSHARE_TESTS_PEERS_DRA_KUBELET_STAND_IN_DRA_KUBELET_H_
#define GCUSHARE_TESTS_PEERS_DRA_KUBELET_STAND_IN_DRA_KUBELET_H_

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "base/clock.h"
#include "base/mutex.h"
#include "kube/kube_client.h"
#include "status/status.h"
#include "tests/peers/cdi_runtime/inject.h"
#include "tests/peers/dra_kubelet/delay_queue.h"
#include "tests/peers/dra_kubelet/dra_client.h"
#include "tests/peers/dra_kubelet/health_cache.h"
#include "tests/peers/dra_kubelet/pod_claims.h"
#include "tests/peers/dra_kubelet/registry_watcher.h"

namespace gcushare::peers::dra_kubelet {

struct DraKubeletOptions {
  std::string node_name;
  std::string registry_dir;           // e.g. /var/lib/kubelet/plugins_registry
  std::vector<std::string> cdi_dirs;  // For the CDI runtime stand-in.
  base::Clock* clock = nullptr;       // Required.
  kube::KubeClient* kube = nullptr;   // Null: no pods, no wiping.
  bool resource_health = true;        // ResourceHealthStatus gate.
  std::chrono::seconds wiping_delay{30};
  std::chrono::seconds health_retry_period{5};
  std::chrono::milliseconds dial_timeout{10000};
  std::chrono::milliseconds get_info_timeout{1000};
  std::chrono::milliseconds notify_timeout{5000};
  std::chrono::milliseconds call_timeout{45000};
  // gRPC's reconnect backoff cap for plugin channels; 0 keeps gRPC's
  // default (2 min, like grpc-go). Tests lower it to reconnect quickly.
  int max_reconnect_backoff_ms = 0;
  // How the CDI runtime stand-in reads a host device node that a CDI spec
  // gives without type or major (containerd lstat()s it; a missing node
  // fails the container). Empty: the real filesystem
  // (cdi_runtime::RealDeviceInfo). Tests with fake cards inject a fake.
  cdi_runtime::DeviceInfoFn device_info;
  // Claim records restored at start, as the kubelet restores its checkpoint
  // after a restart (e.g. Claims() of a previous instance), by claim UID.
  std::map<std::string, ClaimInfo> checkpoint;
};

// One registration attempt, in order.
struct RegistrationRecord {
  std::string socket_path;
  std::string type;
  std::string driver_name;
  std::string endpoint;
  std::vector<std::string> supported_versions;
  std::string chosen_service;  // Set when accepted.
  bool registered = false;
  bool notified = false;  // NotifyRegistrationStatus was sent.
  std::string error;      // Why it was refused or failed.
};

struct PluginView {
  std::string driver_name;
  std::string endpoint;
  std::string socket_path;  // The registration socket.
  std::string chosen_service;
  bool serves_health = false;
  bool connected = false;
  bool health_streaming = false;
  uint64_t health_streams = 0;   // NodeWatchResources calls made.
  uint64_t health_messages = 0;  // Messages received.
};

struct DraKubeletView {
  std::vector<RegistrationRecord> registrations;
  std::vector<PluginView> plugins;
  std::vector<std::string> wipes;  // Field selectors of completed wipes.
};

// A container started by RunPod.
struct ContainerRun {
  std::string name;
  std::vector<std::string> cdi_device_ids;  // As handed to the runtime.
  cdi_runtime::ContainerView view;          // What the runtime made of it.
};

struct PodRun {
  std::vector<ContainerRun> containers;  // initContainers, then containers.
};

class StandInDraKubelet {
 public:
  explicit StandInDraKubelet(DraKubeletOptions options);
  ~StandInDraKubelet();  // Stop()s.
  StandInDraKubelet(const StandInDraKubelet&) = delete;
  StandInDraKubelet& operator=(const StandInDraKubelet&) = delete;

  // Schedules the start-up wipe, scans and watches the registry directory.
  Status Start();
  // Idempotent. Joins its threads, so it waits for a registration attempt
  // in progress (at most the dial and GetInfo deadlines).
  void Stop();

  DraKubeletView View() const;
  // Runs the delayed actions due at the clock's time on this thread.
  int RunDueTimers();
  // Whether a wipe of `driver`'s slices is pending ("" = the start-up one).
  bool WipePending(const std::string& driver) const;

  // The DRA calls on the driver's plugin (see dra_client.h). FailedPrecondition
  // "DRA driver <name> is not registered" when there is none.
  StatusOr<PrepareAnswers> PrepareClaims(const std::string& driver,
                                         const std::vector<ClaimRef>& claims);
  StatusOr<UnprepareAnswers> UnprepareClaims(
      const std::string& driver, const std::vector<ClaimRef>& claims);

  // Starts `pod` (a core/v1 Pod as JSON) as described in the file comment.
  // Nothing is handed to the runtime when any claim fails.
  StatusOr<PodRun> RunPod(const nlohmann::json& pod);
  // Unprepares the pod's claims that no other pod uses.
  Status StopPod(const nlohmann::json& pod);

  // The kubelet's claim records by claim UID.
  std::map<std::string, ClaimInfo> Claims() const;
  DeviceHealthView Health(const std::string& driver, const std::string& pool,
                          const std::string& device) const;

 private:
  struct Plugin;
  struct SocketState {
    std::string identity;
    int failures = 0;
    std::shared_ptr<Plugin> plugin;  // Set once registered.
  };

  void SocketAdded(const std::string& path, const std::string& identity);
  void SocketRemoved(const std::string& path);
  void RegistrationLoop();
  void Register(const std::string& path, const std::string& identity);
  void RetryRegistration(const std::string& path, const std::string& identity);
  void Record(RegistrationRecord record);
  std::shared_ptr<Plugin> AddPlugin(const std::string& socket_path,
                                    const std::string& identity,
                                    const std::string& driver,
                                    const std::string& endpoint,
                                    const std::string& service,
                                    bool serves_health, std::string* error);
  void RemovePlugin(const std::shared_ptr<Plugin>& plugin);
  static void StopPlugin(const std::shared_ptr<Plugin>& plugin);
  void MonitorConnection(const std::shared_ptr<Plugin>& plugin);
  void WatchHealth(std::shared_ptr<Plugin> plugin);
  void SetConnected(const std::shared_ptr<Plugin>& plugin, bool connected);
  void SyncLocked(const std::string& driver) REQUIRES(mu_);
  void Wipe(const std::string& driver, int attempt);
  StatusOr<std::shared_ptr<Plugin>> GetPlugin(const std::string& driver) const;
  Status PrepareForPod(const nlohmann::json& pod);

  const DraKubeletOptions options_;
  HealthCache health_;
  DelayQueue delays_;
  RegistryWatcher watcher_;

  mutable base::Mutex mu_;
  bool stopped_ GUARDED_BY(mu_) = false;
  // By registration socket.
  std::map<std::string, SocketState> sockets_ GUARDED_BY(mu_);
  // Driver -> plugins in the order they registered.
  std::map<std::string, std::vector<std::shared_ptr<Plugin>>> store_
      GUARDED_BY(mu_);
  std::vector<RegistrationRecord> registrations_ GUARDED_BY(mu_);
  std::vector<std::string> wipes_ GUARDED_BY(mu_);
  // (path, identity)
  std::deque<std::pair<std::string, std::string>> pending_ GUARDED_BY(mu_);
  base::CondVar pending_cv_;
  // Started under mu_ (Start), joined by Stop() once stopped_ is set.
  std::thread registration_thread_;

  // Taken after mu_ when both are needed.
  mutable base::Mutex claims_mu_ ACQUIRED_AFTER(mu_);
  // "<namespace>/<name>" -> record.
  std::map<std::string, ClaimInfo> claims_ GUARDED_BY(claims_mu_);
};

}  // namespace gcushare::peers::dra_kubelet

#endif  // GCUSHARE_TESTS_PEERS_DRA_KUBELET_STAND_IN_DRA_KUBELET_H_
