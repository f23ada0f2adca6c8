// The command line of gcushare-device-plugin (docs/contracts.md "Flags"), on
// top of the daemon base's --help, --version, --log-dir, --log-level and
// --seccomp.
//
// --memory-unit is checked while parsing: anything but 1, 0.1, 0.01 and
// 0.001 stops the program (exit code 2) with a message listing those.
#ifndef GCUSHARE_DEVICE_PLUGIN_FLAGS_H_
#define GCUSHARE_DEVICE_PLUGIN_FLAGS_H_

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

#include "device-plugin/plugin.h"
#include "efml/card_source_factory.h"
#include "status/status.h"

namespace gcushare::deviceplugin {

struct CommandLine {
  std::string kubeconfig;  // Empty: in-cluster configuration.
  std::string node_name;   // Default: $NODE_NAME.
  std::string memory_unit = "1";
  efml::CardSourceOptions cards;
  std::string device_plugin_dir = "/var/lib/kubelet/device-plugins";
  std::string cdi_dir = "/var/run/cdi";
  bool device_specs = true;
  bool devices_from_nri = false;
  std::string advertise_mode = "auto";
  uint64_t list_budget_bytes = kDefaultListBudgetBytes;
  double health_interval_seconds = 5;
  double socket_poll_seconds = 1;
};

void AddPluginFlags(CLI::App& app, CommandLine* line);

// The plugin's configuration; InvalidArgument when the node name is unknown
// (no --node-name and no $NODE_NAME) or a value is out of range.
// --fake-cards without --efml-backend selects the fake backend.
StatusOr<PluginConfig> MakePluginConfig(const CLI::App& app, CommandLine& line);

}  // namespace gcushare::deviceplugin

#endif  // GCUSHARE_DEVICE_PLUGIN_FLAGS_H_
