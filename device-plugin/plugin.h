// Plugin: the gcushare-device-plugin, assembled (docs/architecture.md flow
// steps 1 and 6). Start():
//   1. discovers the cards (CardSource) and chooses the advertise mode
//      (advertise_mode.h), logging the decision;
//   2. writes the CDI spec (cdi/ builder + writer) to the CDI directory;
//   3. publishes the node layout (NodeSync: gcu-count capacity, the
//      annotations, and gcu-memory capacity in node-status mode);
//   4. device-ID mode: watches the node's pods (for Allocate, and to finish
//      the assigned marks a restart lost: owed_mark.h), serves the device
//      plugin API on <dir>/<endpoint> and keeps it registered with kubelet
//      (RegistrationLoop); node-status mode: none of this;
//   5. polls card health (efml::HealthMonitor); on every change it
//      publishes the full device list again, rewrites the CDI spec and the
//      node layout.
//
// Ownership: borrows the card source, the client, the registrar (null: a
// GrpcKubeletRegistrar on <dir>/kubelet.sock) and the clock; owns the rest.
// Thread-safety: Start()/Stop() from one thread; accessors from any.
// Failure: Start() fails (and leaves nothing running) when discovery fails
// (the backend's message, e.g. the missing fake cards file), when no card is
// found, when the forced mode cannot work, or when the CDI spec cannot be
// written. Later failures (API server, kubelet, CDI rewrite) are logged and
// retried.
#ifndef GCUSHARE_DEVICE_PLUGIN_PLUGIN_H_
#define GCUSHARE_DEVICE_PLUGIN_PLUGIN_H_

#include <chrono>
#include <memory>
#include <string>

#include "assignment/assigned_marker.h"
#include "base/backoff.h"
#include "base/clock.h"
#include "base/mutex.h"
#include "contract/memory_unit.h"
#include "device-plugin/advertise_mode.h"
#include "device-plugin/allocator.h"
#include "device-plugin/device_list_broadcaster.h"
#include "device-plugin/kubelet_registrar.h"
#include "device-plugin/node_publisher.h"
#include "device-plugin/node_sync.h"
#include "device-plugin/plugin_metrics.h"
#include "device-plugin/plugin_server.h"
#include "device-plugin/pod_source.h"
#include "device-plugin/registration_loop.h"
#include "device-plugin/restart_detector.h"
#include "efml/card_source.h"
#include "efml/health_monitor.h"
#include "kube/kube_client.h"
#include "metrics/registry.h"
#include "status/status.h"

namespace gcushare::deviceplugin {

// The plugin's socket file name in the device-plugin directory.
inline constexpr std::string_view kDefaultEndpoint = "gcushare-gcu-memory.sock";

struct PluginConfig {
  std::string node_name;
  contract::MemoryUnit unit;
  std::string device_plugin_dir = "/var/lib/kubelet/device-plugins";
  std::string endpoint = std::string(kDefaultEndpoint);
  std::string cdi_dir = "/var/run/cdi";
  bool device_specs = true;
  bool devices_from_nri = false;  // See ResponseOptions.
  AdvertiseModeFlag mode = AdvertiseModeFlag::kAuto;
  size_t list_budget_bytes = kDefaultListBudgetBytes;
  std::chrono::milliseconds health_interval{5000};
  std::chrono::milliseconds socket_poll_interval{1000};
  base::BackoffOptions register_backoff{std::chrono::milliseconds(500),
                                        std::chrono::milliseconds(30000), 2.0,
                                        0.2};
  base::BackoffOptions node_backoff{std::chrono::milliseconds(500),
                                    std::chrono::milliseconds(30000), 2.0, 0.2};
  // Borrowed, must outlive the plugin; null: no metrics (plugin_metrics.h).
  metrics::Registry* registry = nullptr;
};

class Plugin {
 public:
  Plugin(PluginConfig config, efml::CardSource* source,
         kube::KubeClient* client, base::Clock* clock,
         KubeletRegistrar* registrar = nullptr);
  ~Plugin();  // Stop()s.
  Plugin(const Plugin&) = delete;
  Plugin& operator=(const Plugin&) = delete;

  Status Start();
  void Stop();

  // Valid after a successful Start().
  const ModeDecision& decision() const { return decision_; }
  efml::HealthMonitor& health_monitor() { return *monitor_; }
  const RegistrationLoop* registration() const { return registration_.get(); }
  const NodeSync& node_sync() const { return *node_sync_; }
  std::string socket_path() const;
  // The node's pods as Allocate sees them (device-ID mode; else null).
  KubePodSource* pod_source() { return pods_.get(); }
  // The pods' assigned marks retried or finished in the background
  // (device-ID mode; else null).
  assignment::AssignedMarker* assigned_marker() { return marker_.get(); }
  // The device list last published to ListAndWatch (device-ID mode).
  DeviceListBroadcaster& device_lists() { return lists_; }

 private:
  void OnInventory(const efml::Inventory& inventory);
  Status WriteCdi(const efml::Inventory& inventory);

  const PluginConfig config_;
  efml::CardSource* const source_;
  kube::KubeClient* const client_;
  base::Clock* const clock_;
  KubeletRegistrar* registrar_;

  std::unique_ptr<PluginMetrics> metrics_;  // Null without a registry.
  ModeDecision decision_;
  base::Mutex cdi_mu_;  // Serialises CDI writes.
  DeviceListBroadcaster lists_;
  StatFileProber prober_;
  std::unique_ptr<GrpcKubeletRegistrar> owned_registrar_;
  std::unique_ptr<efml::HealthMonitor> monitor_;
  std::unique_ptr<KubeNodePublisher> publisher_;
  std::unique_ptr<NodeSync> node_sync_;
  std::unique_ptr<KubePodSource> pods_;
  std::unique_ptr<assignment::AssignedMarker> marker_;
  std::unique_ptr<Allocator> allocator_;
  std::unique_ptr<PluginServer> server_;
  std::unique_ptr<RegistrationLoop> registration_;
  bool started_ = false;
};

}  // namespace gcushare::deviceplugin

#endif  // GCUSHARE_DEVICE_PLUGIN_PLUGIN_H_
