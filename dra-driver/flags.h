// The command line of gcushare-dra-driver, on top of the daemon base's
// --help, --version, --log-dir, --log-level and --seccomp, and the metrics
// endpoint's --metrics-port/--metrics-address.
//
// --memory-unit is checked while parsing (exit code 2 on anything but 1,
// 0.1, 0.01, 0.001); the rest by MakeDriverConfig.
#ifndef GCUSHARE_DRA_DRIVER_FLAGS_H_
#define GCUSHARE_DRA_DRIVER_FLAGS_H_

#include <CLI/CLI.hpp>
#include <chrono>
#include <string>

#include "contract/memory_unit.h"
#include "dra-driver/kubelet_paths.h"
#include "efml/card_source_factory.h"
#include "status/status.h"

namespace gcushare::dra {

struct CommandLine {
  std::string kubeconfig;  // Empty: in-cluster configuration.
  std::string node_name;   // Default: $NODE_NAME.
  std::string kubelet_root = "/var/lib/kubelet";
  std::string cdi_dir = "/var/run/cdi";
  std::string memory_unit = "1";
  efml::CardSourceOptions cards;
  bool consumable_capacity = true;
  bool taint_unhealthy = false;
  std::string card_model = "GCU";
  double health_interval_seconds = 5;
  std::string boot_id_file = "/proc/sys/kernel/random/boot_id";
};

void AddDriverFlags(CLI::App& app, CommandLine* line);

// What the flags decide, checked.
struct DriverConfig {
  std::string node_name;
  KubeletPaths paths;
  std::string cdi_dir;
  contract::MemoryUnit unit;
  bool consumable_capacity = true;
  bool taint_unhealthy = false;
  std::string card_model;
  std::chrono::milliseconds health_interval{5000};
  std::string boot_id_file;
};

// InvalidArgument when the node name is unknown (no --node-name and no
// $NODE_NAME), a directory is not absolute, or a value is out of range.
// --fake-cards without --efml-backend selects the fake backend.
StatusOr<DriverConfig> MakeDriverConfig(const CLI::App& app, CommandLine& line);

}  // namespace gcushare::dra

#endif  // GCUSHARE_DRA_DRIVER_FLAGS_H_
