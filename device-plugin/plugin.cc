#include "device-plugin/plugin.h"

#include <spdlog/spdlog.h>

#include <optional>

#include "base/mutex.h"
#include "cdi/builder.h"
#include "cdi/writer.h"
#include "contract/names.h"
#include "device-plugin/device_ids.h"
#include "device-plugin/device_plugin_service.h"
#include "device-plugin/owed_mark.h"

namespace gcushare::deviceplugin {

Plugin::Plugin(PluginConfig config, efml::CardSource* source,
               kube::KubeClient* client, base::Clock* clock,
               KubeletRegistrar* registrar)
    : config_(std::move(config)),
      source_(source),
      client_(client),
      clock_(clock),
      registrar_(registrar),
      metrics_(config_.registry == nullptr
                   ? nullptr
                   : std::make_unique<PluginMetrics>(config_.registry,
                                                     config_.node_name)) {}

Plugin::~Plugin() { Stop(); }

std::string Plugin::socket_path() const {
  return config_.device_plugin_dir + "/" + config_.endpoint;
}

Status Plugin::WriteCdi(const efml::Inventory& inventory) {
  base::MutexLock lock(cdi_mu_);
  StatusOr<cdi::Spec> spec = cdi::BuildSpec(inventory);
  if (!spec.ok()) return spec.status().WithContext("building the CDI spec");
  StatusOr<cdi::WriteResult> written =
      cdi::WriteSpec(*spec, config_.cdi_dir, cdi::Format::kJson);
  if (!written.ok()) {
    return written.status().WithContext("writing the CDI spec");
  }
  if (written->written) spdlog::info("CDI spec written to {}", written->path);
  return OkStatus();
}

Status Plugin::Start() {
  if (started_) return FailedPreconditionError("the plugin already started");
  StatusOr<efml::Inventory> inventory = source_->Discover();
  if (!inventory.ok()) {
    return inventory.status().WithContext("discovering cards with the " +
                                          source_->Name() + " backend");
  }
  if (inventory->cards.empty()) {
    return FailedPreconditionError("the " + source_->Name() +
                                   " backend found no GCU card on this node");
  }
  spdlog::info("{} card(s) found by the {} backend", inventory->cards.size(),
               source_->Name());
  StatusOr<ModeDecision> decision = DecideMode(
      *inventory, config_.unit, config_.mode, config_.list_budget_bytes);
  if (!decision.ok()) return decision.status();
  decision_ = *decision;
  spdlog::info("advertise mode: {}", decision_.reason);
  GCUSHARE_RETURN_IF_ERROR(WriteCdi(*inventory));

  const bool node_status = decision_.mode == AdvertiseMode::kNodeStatus;
  publisher_ = std::make_unique<KubeNodePublisher>(client_, config_.node_name);
  node_sync_ = std::make_unique<NodeSync>(publisher_.get(), clock_,
                                          config_.node_backoff, metrics_.get());
  if (metrics_) metrics_->Cards(*inventory);
  node_sync_->Start();
  node_sync_->Update(
      MakeNodePublication(*inventory, config_.unit, node_status));

  monitor_ = std::make_unique<efml::HealthMonitor>(*source_, *inventory);
  if (!node_status) {
    lists_.Publish(std::make_shared<const v1beta1::ListAndWatchResponse>(
        BuildDeviceList(*inventory, config_.unit)));
    marker_ = std::make_unique<assignment::AssignedMarker>(
        client_, clock_, config_.node_backoff);
    marker_->Start();
    // Marks a restart lost (owed_mark.h): from the first list on, every pod
    // that runs with its card but unmarked is marked (once: the marker
    // dedupes by uid).
    assignment::AssignedMarker* marker = marker_.get();
    pods_ = std::make_unique<KubePodSource>(
        client_, config_.node_name, clock_,
        [marker, node = config_.node_name](const nlohmann::json& pod) {
          std::optional<OwedMark> owed = FindOwedMark(pod, node);
          if (!owed ||
              !marker->Mark(owed->namespace_name, owed->name, owed->uid)) {
            return;  // Not owed, or its mark is queued or done already.
          }
          spdlog::info(
              "pod {}/{} runs with its card but is not marked {}=true (the "
              "mark after its Allocate was lost, e.g. the plugin restarted): "
              "marking it",
              owed->namespace_name, owed->name, contract::kPodAssigned);
        });
    pods_->Start();
    efml::HealthMonitor* monitor = monitor_.get();
    allocator_ = std::make_unique<Allocator>(
        AllocatorOptions{
            config_.node_name, config_.unit,
            ResponseOptions{config_.device_specs, config_.devices_from_nri},
            metrics_.get()},
        pods_.get(), client_, [monitor] { return monitor->Current(); },
        marker_.get());
    server_ = std::make_unique<PluginServer>(socket_path(), &lists_,
                                             allocator_.get());
    if (registrar_ == nullptr) {
      owned_registrar_ = std::make_unique<GrpcKubeletRegistrar>(
          config_.device_plugin_dir + "/" + std::string(kKubeletSocketName));
      registrar_ = owned_registrar_.get();
    }
    RegistrationOptions registration;
    registration.kubelet_socket =
        config_.device_plugin_dir + "/" + std::string(kKubeletSocketName);
    registration.plugin_socket = socket_path();
    registration.request.set_version(std::string(kDevicePluginApiVersion));
    registration.request.set_endpoint(config_.endpoint);
    registration.request.set_resource_name(
        std::string(contract::kResourceMemory));
    *registration.request.mutable_options() = PluginOptions();
    registration.poll_interval = config_.socket_poll_interval;
    registration.backoff = config_.register_backoff;
    registration_ = std::make_unique<RegistrationLoop>(
        registration, server_.get(), registrar_, &prober_, clock_);
    registration_->Start();
  }
  monitor_->Subscribe([this](const efml::Inventory& inventory,
                             const std::vector<uint32_t>& changed) {
    spdlog::info("{} card(s) changed", changed.size());
    OnInventory(inventory);
  });
  monitor_->Start(config_.health_interval);
  started_ = true;
  return OkStatus();
}

void Plugin::OnInventory(const efml::Inventory& inventory) {
  for (const efml::Card& card : inventory.cards) {
    spdlog::info("card {} ({}): {}", card.index, card.uuid,
                 card.healthy ? "healthy" : "unhealthy");
  }
  if (metrics_) metrics_->Cards(inventory);
  const bool node_status = decision_.mode == AdvertiseMode::kNodeStatus;
  if (!node_status) {
    lists_.Publish(std::make_shared<const v1beta1::ListAndWatchResponse>(
        BuildDeviceList(inventory, config_.unit)));
  }
  if (Status s = WriteCdi(inventory); !s.ok()) spdlog::error("{}", s.message());
  node_sync_->Update(MakeNodePublication(inventory, config_.unit, node_status));
}

void Plugin::Stop() {
  if (monitor_) monitor_->Stop();
  if (registration_) registration_->Stop();
  lists_.Close();
  if (server_) server_->Stop();
  if (pods_) pods_->Stop();  // Before the marker its observer feeds.
  if (marker_) marker_->Stop();
  if (node_sync_) node_sync_->Stop();
  started_ = false;
}

}  // namespace gcushare::deviceplugin
