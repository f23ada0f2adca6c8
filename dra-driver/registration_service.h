// The plugin registration service the kubelet calls on our socket in its
// plugins_registry directory (shared/DRA.md section 1).
//
// GetInfo answers at once from fixed values: type "DRAPlugin", the driver
// name, the DRA service socket's path, and the services we serve, preferred
// first ("v1.DRAPlugin", "v1beta1.DRAPlugin", "v1alpha1.DRAResourceHealth").
// The kubelet then reports its verdict through NotifyRegistrationStatus:
// each verdict is logged and handed to `on_status`; a refusal
// (plugin_registered false) is what ends the driver non-zero.
//
// Ownership: owns copies of its values. Thread-safety: gRPC calls it
// concurrently; `on_status` may run on any gRPC thread.
#ifndef GCUSHARE_DRA_DRIVER_REGISTRATION_SERVICE_H_
#define GCUSHARE_DRA_DRIVER_REGISTRATION_SERVICE_H_

#include <functional>
#include <string>
#include <vector>

#include "dra-driver/api/pluginregistration.grpc.pb.h"

namespace gcushare::dra {

// The strings of PluginInfo.supported_versions for what the driver serves.
inline constexpr std::string_view kServiceV1 = "v1.DRAPlugin";
inline constexpr std::string_view kServiceV1beta1 = "v1beta1.DRAPlugin";
inline constexpr std::string_view kServiceHealth = "v1alpha1.DRAResourceHealth";
inline constexpr std::string_view kDraPluginType = "DRAPlugin";

struct RegistrationVerdict {
  bool registered = false;
  std::string error;  // The kubelet's reason when refused.
};

class RegistrationService final
    : public pluginregistration::Registration::Service {
 public:
  RegistrationService(
      std::string driver_name, std::string endpoint,
      std::function<void(const RegistrationVerdict&)> on_status);

  grpc::Status GetInfo(grpc::ServerContext* context,
                       const pluginregistration::InfoRequest* request,
                       pluginregistration::PluginInfo* response) override;
  grpc::Status NotifyRegistrationStatus(
      grpc::ServerContext* context,
      const pluginregistration::RegistrationStatus* request,
      pluginregistration::RegistrationStatusResponse* response) override;

 private:
  const std::string driver_name_;
  const std::string endpoint_;
  const std::function<void(const RegistrationVerdict&)> on_status_;
};

}  // namespace gcushare::dra

#endif  // GCUSHARE_DRA_DRIVER_REGISTRATION_SERVICE_H_
