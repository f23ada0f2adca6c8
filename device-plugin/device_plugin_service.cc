#include "device-plugin/device_plugin_service.h"

#include <spdlog/spdlog.h>

#include "device-plugin/advertise_mode.h"

namespace gcushare::deviceplugin {
namespace {

constexpr std::chrono::milliseconds kStreamPoll{200};

grpc::Status ToGrpc(const Status& status) {
  return grpc::Status(static_cast<grpc::StatusCode>(status.code()),
                      status.message());
}

}  // namespace

v1beta1::DevicePluginOptions PluginOptions() {
  v1beta1::DevicePluginOptions options;
  options.set_pre_start_required(false);
  options.set_get_preferred_allocation_available(true);
  return options;
}

DevicePluginService::DevicePluginService(DeviceListBroadcaster* lists,
                                         Allocator* allocator)
    : lists_(lists), allocator_(allocator) {}

void DevicePluginService::Stop() { stopped_ = true; }

grpc::Status DevicePluginService::GetDevicePluginOptions(
    grpc::ServerContext*, const v1beta1::Empty*,
    v1beta1::DevicePluginOptions* response) {
  *response = PluginOptions();
  return grpc::Status::OK;
}

grpc::Status DevicePluginService::ListAndWatch(
    grpc::ServerContext* context, const v1beta1::Empty*,
    grpc::ServerWriter<v1beta1::ListAndWatchResponse>* writer) {
  spdlog::info("kubelet opened ListAndWatch");
  uint64_t sent = 0;
  while (!stopped_ && !context->IsCancelled()) {
    std::optional<DeviceListBroadcaster::Snapshot> next =
        lists_->WaitNewer(sent, kStreamPoll);
    if (!next) {
      if (lists_->closed()) break;
      continue;
    }
    sent = next->version;
    const size_t bytes = next->value->ByteSizeLong();
    if (bytes > kKubeletMaxMessageBytes) {
      // Cannot happen when the mode was chosen by DecideMode; never send a
      // message kubelet must reject.
      spdlog::error(
          "device list of {} bytes exceeds kubelet's limit of {}; not sent "
          "(restart the plugin so that it picks node-status mode)",
          bytes, kKubeletMaxMessageBytes);
      continue;
    }
    if (!writer->Write(*next->value)) {
      spdlog::info("ListAndWatch: kubelet went away");
      return grpc::Status::OK;
    }
    spdlog::debug("ListAndWatch: sent {} devices ({} bytes, version {})",
                  next->value->devices_size(), bytes, sent);
  }
  spdlog::info("ListAndWatch ends");
  return grpc::Status::OK;
}

grpc::Status DevicePluginService::GetPreferredAllocation(
    grpc::ServerContext*, const v1beta1::PreferredAllocationRequest* request,
    v1beta1::PreferredAllocationResponse* response) {
  for (const auto& container : request->container_requests()) {
    *response->add_container_responses() =
        allocator_->PreferContainer(container);
  }
  return grpc::Status::OK;
}

grpc::Status DevicePluginService::Allocate(
    grpc::ServerContext*, const v1beta1::AllocateRequest* request,
    v1beta1::AllocateResponse* response) {
  if (request->container_requests_size() == 0) {
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                        "Allocate without a container request");
  }
  for (const auto& container : request->container_requests()) {
    StatusOr<v1beta1::ContainerAllocateResponse> answer =
        allocator_->AllocateContainer(container);
    if (!answer.ok()) return ToGrpc(answer.status());
    *response->add_container_responses() = std::move(*answer);
  }
  return grpc::Status::OK;
}

grpc::Status DevicePluginService::PreStartContainer(
    grpc::ServerContext*, const v1beta1::PreStartContainerRequest*,
    v1beta1::PreStartContainerResponse*) {
  return grpc::Status::OK;
}

}  // namespace gcushare::deviceplugin
