#include "device-plugin/flags.h"

#include <cstdlib>

#include "contract/memory_unit.h"
#include "contract/memory_unit_flag.h"
#include "efml/card_source_flags.h"

namespace gcushare::deviceplugin {
namespace {

std::chrono::milliseconds Millis(double seconds) {
  return std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000));
}

}  // namespace

void AddPluginFlags(CLI::App& app, CommandLine* line) {
  app.add_option("--kubeconfig", line->kubeconfig,
                 "kubeconfig file to reach the API server; absent: the "
                 "in-cluster service account.")
      ->type_name("PATH");
  app.add_option("--node-name", line->node_name,
                 "This node's name (pods are matched on spec.nodeName, the "
                 "layout is published on this Node). Default: $NODE_NAME.")
      ->type_name("NAME");
  contract::AddMemoryUnitFlag(
      app, &line->memory_unit,
      "GiB per unit of enflame.com/gcu-memory: 1, 0.1, 0.01 or 0.001.");
  efml::AddCardSourceFlags(app, &line->cards);
  app.add_option("--device-plugin-dir", line->device_plugin_dir,
                 "kubelet's device plugin directory: kubelet.sock is there, "
                 "and the plugin serves on gcushare-gcu-memory.sock in it.")
      ->type_name("DIR")
      ->capture_default_str();
  app.add_option("--cdi-dir", line->cdi_dir,
                 "Where the CDI spec enflame.com-gcu.json is written "
                 "(/var/run/cdi, or /etc/cdi).")
      ->type_name("DIR")
      ->capture_default_str();
  app.add_option("--device-specs", line->device_specs,
                 "Also answer Allocate with DeviceSpecs for /dev/gcu<index> "
                 "(and control nodes), for runtimes without CDI. "
                 "--device-specs=false leaves the devices to CDI alone.")
      ->capture_default_str();
  app.add_option("--devices-from-nri", line->devices_from_nri,
                 "The NRI plugin runs on this node and hands out the cards: "
                 "answer Allocate with the environment only (no CDI device, "
                 "no DeviceSpec), so that a wrong guess among identical pods "
                 "leaves no device-cgroup rule for another pod's card.")
      ->capture_default_str();
  app.add_option("--advertise-mode", line->advertise_mode,
                 "auto: list device IDs to kubelet while the list fits the "
                 "--list-budget-bytes, else node-status mode; device-ids or "
                 "node-status force one (node-status: capacity patched in "
                 "node status, no kubelet registration, hand-out by the NRI "
                 "plugin).")
      ->check(CLI::IsMember({"auto", "device-ids", "node-status"}))
      ->capture_default_str();
  app.add_option("--list-budget-bytes", line->list_budget_bytes,
                 "Largest ListAndWatch message in auto mode (kubelet rejects "
                 "messages over 4194304 bytes).")
      ->check(CLI::Range(uint64_t{1}, uint64_t{4194304}))
      ->capture_default_str();
  app.add_option("--health-interval", line->health_interval_seconds,
                 "Seconds between card health polls.")
      ->check(CLI::Range(0.01, 3600.0))
      ->capture_default_str();
  app.add_option("--socket-poll-interval", line->socket_poll_seconds,
                 "Seconds between checks of the device plugin directory for "
                 "a kubelet restart.")
      ->check(CLI::Range(0.01, 60.0))
      ->capture_default_str();
}

StatusOr<PluginConfig> MakePluginConfig(const CLI::App& app,
                                        CommandLine& line) {
  PluginConfig config;
  if (line.node_name.empty()) {
    if (const char* env = std::getenv("NODE_NAME")) line.node_name = env;
  }
  if (line.node_name.empty()) {
    return InvalidArgumentError(
        "the node name is unknown: pass --node-name or set $NODE_NAME");
  }
  config.node_name = line.node_name;
  GCUSHARE_ASSIGN_OR_RETURN(config.unit,
                            contract::MemoryUnit::Parse(line.memory_unit));
  GCUSHARE_ASSIGN_OR_RETURN(config.mode,
                            ParseAdvertiseModeFlag(line.advertise_mode));
  efml::ResolveCardSourceFlags(app, &line.cards);
  config.device_plugin_dir = line.device_plugin_dir;
  config.cdi_dir = line.cdi_dir;
  config.device_specs = line.device_specs;
  config.devices_from_nri = line.devices_from_nri;
  config.list_budget_bytes = static_cast<size_t>(line.list_budget_bytes);
  config.health_interval = Millis(line.health_interval_seconds);
  config.socket_poll_interval = Millis(line.socket_poll_seconds);
  return config;
}

}  // namespace gcushare::deviceplugin
