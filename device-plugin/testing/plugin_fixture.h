// Test support: one node's worth of GCUShare device plugin, wired to the
// stand-in API server (in process, on 127.0.0.1) and the stand-in kubelet
// (in process, on unix sockets in a short /tmp directory), with the cards
// in a fake cards file the test can rewrite.
//
// Pods "bound by the extender" are created directly in the API server with
// the docs/contracts.md assignment annotations and spec.nodeName set.
//
// Not for production code. Aborts the test binary when the fixture itself
// cannot be set up. Thread-safety: CreateBoundPod/GetPod/GetNode may be
// called from several threads; the rest from the test's thread.
#ifndef GCUSHARE_DEVICE_PLUGIN_TESTING_PLUGIN_FIXTURE_H_
#define GCUSHARE_DEVICE_PLUGIN_TESTING_PLUGIN_FIXTURE_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/clock.h"
#include "device-plugin/plugin.h"
#include "efml/card_source.h"
#include "kube/curl_kube_client.h"
#include "metrics/registry.h"
#include "tests/peers/apiserver/api_server.h"
#include "tests/peers/kubelet/stand_in_kubelet.h"

namespace gcushare::deviceplugin::testing {

// A fake cards file with `count` cards of `memory_mib` each; card i is on
// NUMA node i / 4 and unhealthy when listed in `unhealthy`.
std::string CardsYaml(uint32_t count, uint64_t memory_mib,
                      const std::vector<uint32_t>& unhealthy = {});

struct FixtureOptions {
  std::string node = "node-1";
  std::string cards_yaml = CardsYaml(8, 16384);
  std::string unit = "1";
  AdvertiseModeFlag mode = AdvertiseModeFlag::kAuto;
  bool devices_from_nri = false;
  bool start_kubelet = true;
  // Health is polled only when a test calls PollHealth() unless set.
  std::chrono::milliseconds health_interval{std::chrono::hours(1)};
  // Borrowed, for the plugin's metrics; outlives the fixture. One plugin
  // per registry: StartPlugin() once when set.
  metrics::Registry* registry = nullptr;
};

struct BoundPod {
  std::string name;
  std::string ns = "default";
  // Container name -> gcu-memory units, in spec order.
  std::vector<std::pair<std::string, uint64_t>> containers = {{"main", 4}};
  uint32_t card = 0;
  int64_t assign_time_ns = 1;
};

class PluginFixture {
 public:
  explicit PluginFixture(FixtureOptions options = FixtureOptions());
  ~PluginFixture();

  // Starts the plugin (returns its Start() status).
  Status StartPlugin();
  void StopPlugin();

  Plugin& plugin() { return *plugin_; }
  peers::kubelet::StandInKubelet& kubelet() { return *kubelet_; }
  int api_port() const { return port_; }
  kube::KubeClient& client() { return *client_; }
  const FixtureOptions& options() const { return options_; }
  const std::string& plugin_dir() const { return plugin_dir_; }
  const std::string& cdi_dir() const { return cdi_dir_; }
  const std::string& cards_file() const { return cards_file_; }

  // Rewrites the cards file and polls health once.
  void SetCards(const std::string& yaml);

  // Creates a pod bound to this node with the assignment annotations
  // (gcu-device-assigned=false) and returns it.
  nlohmann::json CreateBoundPod(const BoundPod& pod);
  nlohmann::json GetPod(const std::string& name,
                        const std::string& ns = "default");
  nlohmann::json GetNode();

  // Polls the node until `predicate` holds (generous deadline).
  bool WaitForNode(
      const std::function<bool(const nlohmann::json&)>& predicate,
      std::chrono::milliseconds timeout = std::chrono::seconds(20));
  // Waits until the kubelet has a device list of `count` entries for
  // enflame.com/gcu-memory.
  bool WaitForDevices(size_t count, std::chrono::milliseconds timeout =
                                        std::chrono::seconds(30));

  // The API server goes away (its state kept in a file) / comes back on the
  // same port.
  void StopApiServer();
  void RestartApiServer();

  // One Allocate through the stand-in kubelet for `units` IDs.
  StatusOr<peers::kubelet::ContainerAllocation> Allocate(uint64_t units);

 private:
  FixtureOptions options_;
  std::string root_;
  std::string plugin_dir_;
  std::string cdi_dir_;
  std::string cards_file_;
  std::string state_file_;
  int port_ = 0;
  std::unique_ptr<apiserver::ApiServer> api_;
  void StartApiServer(int port);
  base::RealClock clock_;
  std::unique_ptr<kube::CurlKubeClient> client_;
  std::unique_ptr<efml::CardSource> source_;
  std::unique_ptr<peers::kubelet::StandInKubelet> kubelet_;
  std::unique_ptr<Plugin> plugin_;
};

}  // namespace gcushare::deviceplugin::testing

#endif  // GCUSHARE_DEVICE_PLUGIN_TESTING_PLUGIN_FIXTURE_H_
