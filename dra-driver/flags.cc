#include "dra-driver/flags.h"

#include <cstdlib>

#include "contract/memory_unit_flag.h"
#include "contract/names.h"
#include "efml/card_source_flags.h"

namespace gcushare::dra {

void AddDriverFlags(CLI::App& app, CommandLine* line) {
  app.add_option("--kubeconfig", line->kubeconfig,
                 "kubeconfig file to reach the API server; absent: the "
                 "in-cluster service account.")
      ->type_name("PATH");
  app.add_option("--node-name", line->node_name,
                 "This node's name: the ResourceSlices' spec.nodeName and "
                 "pool name. Default: $NODE_NAME.")
      ->type_name("NAME");
  app.add_option("--kubelet-root", line->kubelet_root,
                 "The kubelet's root directory (its --root-dir): the "
                 "registration socket goes in plugins_registry/, the DRA "
                 "socket and the checkpoint in plugins/gcu.enflame.com/. "
                 "Mount it at the same path inside the container.")
      ->type_name("DIR")
      ->capture_default_str();
  app.add_option("--cdi-dir", line->cdi_dir,
                 "Where the per-claim CDI specs are written (the runtime "
                 "reads /var/run/cdi and /etc/cdi).")
      ->type_name("DIR")
      ->capture_default_str();
  contract::AddMemoryUnitFlag(
      app, &line->memory_unit,
      "GiB per unit of card memory a claim may ask (the request policy's "
      "min and step): 1, 0.1, 0.01 or 0.001.");
  efml::AddCardSourceFlags(app, &line->cards);
  app.add_option("--consumable-capacity", line->consumable_capacity,
                 "Offer cards as shares by memory (allowMultipleAllocations "
                 "and a request policy; KEP-5075, on by default from "
                 "Kubernetes 1.36). When the API server drops those fields "
                 "the driver says so and publishes whole cards anyway; "
                 "false publishes whole cards only.")
      ->capture_default_str();
  app.add_option("--taint-unhealthy", line->taint_unhealthy,
                 "Publish an unhealthy card with the device taint "
                 "gcu.enflame.com/unhealthy:NoSchedule (DRADeviceTaints, "
                 "beta in 1.36) instead of leaving it out of the slices.")
      ->capture_default_str();
  app.add_option("--card-model", line->card_model,
                 "The cards' \"model\" attribute in the ResourceSlices "
                 "(claims may select on it).")
      ->capture_default_str();
  app.add_option("--health-interval", line->health_interval_seconds,
                 "Seconds between card health polls.")
      ->check(CLI::Range(0.01, 3600.0))
      ->capture_default_str();
  app.add_option("--boot-id-file", line->boot_id_file,
                 "Where the node's boot id is read (a reboot empties "
                 "/var/run/cdi: prepared claims get their CDI specs "
                 "rewritten).")
      ->type_name("PATH")
      ->capture_default_str();
}

StatusOr<DriverConfig> MakeDriverConfig(const CLI::App& app,
                                        CommandLine& line) {
  if (line.node_name.empty()) {
    if (const char* env = std::getenv("NODE_NAME")) line.node_name = env;
  }
  if (line.node_name.empty()) {
    return InvalidArgumentError(
        "the node name is unknown: pass --node-name or set $NODE_NAME");
  }
  for (const auto& [flag, dir] : {std::pair<const char*, const std::string*>{
                                      "--kubelet-root", &line.kubelet_root},
                                  {"--cdi-dir", &line.cdi_dir}}) {
    if (dir->empty() || dir->front() != '/') {
      return InvalidArgumentError(std::string(flag) + "=" + *dir +
                                  " must be an absolute directory");
    }
  }
  efml::ResolveCardSourceFlags(app, &line.cards);
  DriverConfig config;
  config.node_name = line.node_name;
  config.paths = MakeKubeletPaths(line.kubelet_root, contract::kDraDriverName);
  config.cdi_dir = line.cdi_dir;
  GCUSHARE_ASSIGN_OR_RETURN(config.unit,
                            contract::MemoryUnit::Parse(line.memory_unit));
  config.consumable_capacity = line.consumable_capacity;
  config.taint_unhealthy = line.taint_unhealthy;
  if (line.card_model.empty() || line.card_model.size() > 64) {
    return InvalidArgumentError("--card-model must be 1 to 64 characters");
  }
  config.card_model = line.card_model;
  config.health_interval = std::chrono::milliseconds(
      static_cast<int64_t>(line.health_interval_seconds * 1000));
  config.boot_id_file = line.boot_id_file;
  return config;
}

}  // namespace gcushare::dra
