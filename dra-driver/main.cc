// gcushare-dra-driver: the Kubernetes DRA driver of GCUShare (driver
// gcu.enflame.com). It publishes this node's GCU cards as ResourceSlices
// (shares by memory where the API server offers consumable capacity),
// prepares the claims the kubelet hands it (one CDI spec per claim), and
// reports card health to the kubelet. docs/dra.md tells operators when and
// how to use it.
#include <spdlog/spdlog.h>

#include "base/clock.h"
#include "contract/names.h"
#include "daemon/daemon.h"
#include "daemon/version.h"
#include "dra-driver/api_permissions.h"
#include "dra-driver/claim_preparer.h"
#include "dra-driver/driver.h"
#include "dra-driver/flags.h"
#include "dra-driver/slice_publisher.h"
#include "dra-driver/syscalls.h"
#include "efml/card_source_factory.h"
#include "efml/health_monitor.h"
#include "fs/make_dirs.h"
#include "kube/component_client.h"
#include "metrics/http_endpoint.h"
#include "metrics/registry.h"

namespace gcushare::dra {
namespace {

// Connects to the API server of `kubeconfig` (empty: in-cluster) as the DRA
// driver, held to the calls it declared.
StatusOr<std::unique_ptr<kube::ComponentClient>> ConnectKube(
    const std::string& kubeconfig, base::Clock* clock) {
  kube::KubeClientOptions client_options;
  client_options.clock = clock;
  return kube::ComponentClient::ConnectFromFlag(
      kubeconfig, std::string(contract::kDraDriverComponentName),
      DraDriverApiPermissions(), client_options);
}

// The claim preparer's options from the configuration; the pointers are
// borrowed and must outlive the preparer.
ClaimPreparerOptions ClaimOptions(const DriverConfig& config,
                                  const efml::Inventory& inventory,
                                  kube::KubeClient* api, base::Clock* clock,
                                  metrics::Registry* registry) {
  ClaimPreparerOptions claim_options;
  claim_options.node_name = config.node_name;
  claim_options.cdi_dir = config.cdi_dir;
  claim_options.checkpoint_path = config.paths.checkpoint;
  claim_options.boot_id_path = config.boot_id_file;
  claim_options.memory_unit = config.unit;
  claim_options.inventory = inventory;
  claim_options.kube = api;
  claim_options.clock = clock;
  claim_options.metrics = registry;
  return claim_options;
}

// Restores the prepared claims from the checkpoint and logs what it found;
// an error only when the checkpoint could not be read at all.
Status RestoreClaims(ClaimPreparer& claims, const std::string& checkpoint) {
  StatusOr<RestoreReport> restored = claims.Restore();
  if (!restored.ok()) return restored.status();
  if (!restored->corrupt_kept_as.empty()) {
    spdlog::error(
        "checkpoint {} is corrupt ({}): kept as {}, starting with no prepared "
        "claims (Unprepare still removes their CDI specs)",
        checkpoint, restored->corrupt_reason, restored->corrupt_kept_as);
  }
  for (const std::string& conflict : restored->conflicts) {
    spdlog::warn("checkpoint: {}", conflict);
  }
  spdlog::info("checkpoint: {} prepared claims restored{}", restored->claims,
               restored->rebooted ? " (the node rebooted since)" : "");
  return OkStatus();
}

// The driver's options but its callbacks; the pointers are borrowed and
// must outlive the driver.
DriverOptions DriverOptionsFor(const DriverConfig& config,
                               ClaimPreparer* claims,
                               efml::HealthMonitor* health,
                               base::Clock* clock) {
  DriverOptions driver_options;
  driver_options.driver_name = std::string(contract::kDraDriverName);
  driver_options.node_name = config.node_name;
  driver_options.paths = config.paths;
  driver_options.claims = claims;
  driver_options.health = health;
  driver_options.clock = clock;
  return driver_options;
}

// The slice publisher's options from the configuration; `clock` and
// `registry` are borrowed and must outlive the publisher.
SlicePublisherOptions SliceOptions(const DriverConfig& config,
                                   base::Clock* clock,
                                   metrics::Registry* registry) {
  SlicePublisherOptions slice_options;
  slice_options.slices.node_name = config.node_name;
  slice_options.slices.driver_version = std::string(Version());
  slice_options.slices.card_model = config.card_model;
  slice_options.slices.memory_unit = config.unit;
  slice_options.slices.consumable_capacity = config.consumable_capacity;
  slice_options.slices.taint_unhealthy = config.taint_unhealthy;
  slice_options.clock = clock;
  slice_options.metrics = registry;
  return slice_options;
}

}  // namespace
}  // namespace gcushare::dra

int main(int argc, char** argv) {
  using namespace gcushare;
  Daemon daemon(std::string(contract::kDraDriverComponentName),
                "Kubernetes DRA driver gcu.enflame.com: publishes this node's "
                "GCU cards as resource.k8s.io/v1 ResourceSlices that the "
                "scheduler shares by memory (consumable capacity), prepares "
                "the kubelet's claims as per-claim CDI specs, and streams card "
                "health to the kubelet.");
  dra::CommandLine line;
  dra::AddDriverFlags(daemon.app(), &line);
  metrics::EndpointFlags metrics_flags;
  metrics::AddEndpointFlags(daemon.app(), &metrics_flags);
  if (auto code = daemon.ParseFlags(argc, argv)) return *code;
  if (Status s = daemon.StartLogging(); !s.ok()) return daemon.Fail(s);

  StatusOr<dra::DriverConfig> config =
      dra::MakeDriverConfig(daemon.app(), line);
  if (!config.ok()) return daemon.Fail(config.status());
  StatusOr<std::unique_ptr<efml::CardSource>> source =
      efml::MakeCardSource(line.cards);
  if (!source.ok()) return daemon.Fail(source.status());
  StatusOr<efml::Inventory> inventory = (*source)->Discover();
  if (!inventory.ok()) return daemon.Fail(inventory.status());
  spdlog::info("{} cards found by the {} backend", inventory->cards.size(),
               (*source)->Name());
  base::RealClock clock;
  StatusOr<std::unique_ptr<kube::ComponentClient>> kube_client =
      dra::ConnectKube(line.kubeconfig, &clock);
  if (!kube_client.ok()) return daemon.Fail(kube_client.status());
  kube::KubeClient* api = (*kube_client)->api();
  metrics::Registry registry;  // Outlives everything below.

  // Claims: the checkpoint first, so that Unprepare works for what an
  // earlier run prepared. Its directory is the DRA socket's too.
  if (Status s = fs::MakeDirectories(config->paths.plugin_dir, 0750); !s.ok()) {
    return daemon.Fail(s);
  }
  dra::ClaimPreparer claims(
      dra::ClaimOptions(*config, *inventory, api, &clock, &registry));
  if (Status s = dra::RestoreClaims(claims, config->paths.checkpoint);
      !s.ok()) {
    return daemon.Fail(s);
  }

  // Slices: published in the background; the kubelet's wipe at its start
  // and 30 s after losing us is repaired by the publisher's watch.
  dra::SlicePublisher slices(api, *inventory,
                             dra::SliceOptions(*config, &clock, &registry));

  efml::HealthMonitor health(**source, *inventory);
  dra::DriverOptions driver_options =
      dra::DriverOptionsFor(*config, &claims, &health, &clock);
  driver_options.on_inventory = [&slices](const efml::Inventory& cards) {
    slices.SetInventory(cards);
  };
  Status refused = OkStatus();
  driver_options.on_refused = [&](const std::string& why) {
    refused = FailedPreconditionError("the kubelet refused the registration: " +
                                      (why.empty() ? "no reason given" : why));
    daemon.shutdown().Trigger();
  };
  dra::Driver driver(std::move(driver_options));
  slices.Start();
  if (Status s = driver.Start(); !s.ok()) {
    slices.Stop();
    return daemon.Fail(s);
  }
  health.Start(config->health_interval);
  StatusOr<std::unique_ptr<metrics::HttpEndpoint>> endpoint =
      metrics::StartFromFlags(&registry, metrics_flags);
  if (!endpoint.ok()) {
    health.Stop();
    driver.Stop();
    slices.Stop();
    return daemon.Fail(endpoint.status());
  }
  if (Status s = daemon.Confine(dra::DraDriverSyscalls(
          (*source)->Name() == "efml", metrics_flags.port != 0));
      !s.ok()) {
    health.Stop();
    driver.Stop();
    slices.Stop();
    return daemon.Fail(s);
  }
  spdlog::info("ready on node {}", config->node_name);
  daemon.shutdown().Wait();
  spdlog::info("shutting down");
  if (*endpoint) (*endpoint)->Stop();
  health.Stop();
  driver.Stop();
  slices.Stop();
  if (!refused.ok()) return daemon.Fail(refused);
  return daemon.Finish();
}
