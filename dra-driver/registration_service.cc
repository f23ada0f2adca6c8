#include "dra-driver/registration_service.h"

#include <spdlog/spdlog.h>

namespace gcushare::dra {

RegistrationService::RegistrationService(
    std::string driver_name, std::string endpoint,
    std::function<void(const RegistrationVerdict&)> on_status)
    : driver_name_(std::move(driver_name)),
      endpoint_(std::move(endpoint)),
      on_status_(std::move(on_status)) {}

grpc::Status RegistrationService::GetInfo(
    grpc::ServerContext*, const pluginregistration::InfoRequest*,
    pluginregistration::PluginInfo* response) {
  response->set_type(std::string(kDraPluginType));
  response->set_name(driver_name_);
  response->set_endpoint(endpoint_);
  for (std::string_view version :
       {kServiceV1, kServiceV1beta1, kServiceHealth}) {
    response->add_supported_versions(std::string(version));
  }
  spdlog::info("kubelet asked for the plugin info (endpoint {})", endpoint_);
  return grpc::Status::OK;
}

grpc::Status RegistrationService::NotifyRegistrationStatus(
    grpc::ServerContext*, const pluginregistration::RegistrationStatus* request,
    pluginregistration::RegistrationStatusResponse*) {
  RegistrationVerdict verdict{request->plugin_registered(), request->error()};
  if (verdict.registered) {
    spdlog::info("kubelet registered driver {}", driver_name_);
  } else {
    spdlog::error("kubelet refused driver {}: {}", driver_name_,
                  verdict.error.empty() ? "(no reason given)" : verdict.error);
  }
  if (on_status_) on_status_(verdict);
  return grpc::Status::OK;
}

}  // namespace gcushare::dra
