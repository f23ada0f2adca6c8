// Device health for the kubelet (KEP-4680, v1alpha1.DRAResourceHealth):
// NodeWatchResources streams the driver's complete device list, each
// device HEALTHY or UNHEALTHY as EFML reports its card, whenever it changes
// and at least every `resend_interval`, so that the kubelet never lets an
// entry lapse to Unknown (each entry says health_check_timeout_seconds =
// kHealthTimeoutSeconds, three resend intervals).
//
// BuildHealthReport is pure; HealthService serves the latest report
// (base/latest_value.h) to every open stream.
//
// Ownership: the service borrows the reports, which must outlive it.
// Thread-safety: thread-safe; streams end when the reports are closed or the
// kubelet goes away.
#ifndef GCUSHARE_DRA_DRIVER_HEALTH_SERVICE_H_
#define GCUSHARE_DRA_DRIVER_HEALTH_SERVICE_H_

#include <chrono>
#include <cstdint>
#include <string>

#include "base/latest_value.h"
#include "dra-driver/api/dra_health.grpc.pb.h"
#include "efml/card.h"

namespace gcushare::dra {

inline constexpr int64_t kHealthTimeoutSeconds = 60;

using HealthReports = base::LatestValue<v1alpha1::NodeWatchResourcesResponse>;

// One entry per card of `inventory` (device "gcu-<index>" in `pool`), with
// `now_unix_seconds` as its update time.
v1alpha1::NodeWatchResourcesResponse BuildHealthReport(
    const efml::Inventory& inventory, const std::string& pool,
    int64_t now_unix_seconds);

class HealthService final : public v1alpha1::DRAResourceHealth::Service {
 public:
  HealthService(HealthReports* reports,
                std::chrono::milliseconds resend_interval =
                    std::chrono::seconds(kHealthTimeoutSeconds / 3));

  grpc::Status NodeWatchResources(
      grpc::ServerContext* context,
      const v1alpha1::NodeWatchResourcesRequest* request,
      grpc::ServerWriter<v1alpha1::NodeWatchResourcesResponse>* writer)
      override;

 private:
  HealthReports* const reports_;
  const std::chrono::milliseconds resend_interval_;
};

}  // namespace gcushare::dra

#endif  // GCUSHARE_DRA_DRIVER_HEALTH_SERVICE_H_
