#include "dra-driver/health_service.h"

#include <spdlog/spdlog.h>

#include "dra-driver/device_name.h"

namespace gcushare::dra {

v1alpha1::NodeWatchResourcesResponse BuildHealthReport(
    const efml::Inventory& inventory, const std::string& pool,
    int64_t now_unix_seconds) {
  v1alpha1::NodeWatchResourcesResponse report;
  for (const efml::Card& card : inventory.cards) {
    v1alpha1::DeviceHealth* entry = report.add_devices();
    entry->mutable_device()->set_pool_name(pool);
    entry->mutable_device()->set_device_name(DeviceName(card.index));
    entry->set_health(card.healthy ? v1alpha1::HEALTHY : v1alpha1::UNHEALTHY);
    entry->set_last_updated_time(now_unix_seconds);
    entry->set_health_check_timeout_seconds(kHealthTimeoutSeconds);
    entry->set_message(card.healthy ? "EFML reports the card healthy"
                                    : "EFML reports the card unhealthy");
  }
  return report;
}

HealthService::HealthService(HealthReports* reports,
                             std::chrono::milliseconds resend_interval)
    : reports_(reports), resend_interval_(resend_interval) {}

grpc::Status HealthService::NodeWatchResources(
    grpc::ServerContext* context, const v1alpha1::NodeWatchResourcesRequest*,
    grpc::ServerWriter<v1alpha1::NodeWatchResourcesResponse>* writer) {
  spdlog::info("kubelet opened NodeWatchResources");
  // Short waits so that a cancelled stream ends promptly.
  constexpr std::chrono::milliseconds kPoll(200);
  HealthReports::Snapshot sent = reports_->Current();
  if (sent.value && !writer->Write(*sent.value)) return grpc::Status::OK;
  auto last_write = std::chrono::steady_clock::now();
  while (!context->IsCancelled() && !reports_->closed()) {
    std::optional<HealthReports::Snapshot> next =
        reports_->WaitNewer(sent.version, kPoll);
    if (next) {
      sent = *next;
    } else if (std::chrono::steady_clock::now() - last_write <
                   resend_interval_ ||
               !sent.value) {
      continue;
    }
    // A newer report, or the same one again before the kubelet's timeout.
    if (!writer->Write(*sent.value)) break;
    last_write = std::chrono::steady_clock::now();
  }
  spdlog::info("NodeWatchResources ends");
  return grpc::Status::OK;
}

}  // namespace gcushare::dra
