// DevicePluginService: the v1beta1.DevicePlugin gRPC service kubelet calls
// on the plugin's socket (docs/protocols.md 1.2).
//
//   GetDevicePluginOptions: pre_start_required false,
//     get_preferred_allocation_available true (the same options the plugin
//     registers with);
//   ListAndWatch: the current list at once, then the full list again on
//     every change, until kubelet hangs up or the service is stopped;
//   GetPreferredAllocation / Allocate: one answer per container request,
//     through the Allocator; Allocate errors carry the Allocator's status
//     code and message (why no pod matched);
//   PreStartContainer: nothing to do.
//
// Ownership: borrows the broadcaster and the allocator. One service per
// gRPC server. Thread-safety: gRPC calls the handlers concurrently; Stop()
// may be called from any thread and makes open ListAndWatch streams end
// within one poll interval.
#ifndef GCUSHARE_DEVICE_PLUGIN_DEVICE_PLUGIN_SERVICE_H_
#define GCUSHARE_DEVICE_PLUGIN_DEVICE_PLUGIN_SERVICE_H_

#include <atomic>
#include <chrono>

#include "device-plugin/allocator.h"
#include "device-plugin/api/api.grpc.pb.h"
#include "device-plugin/device_list_broadcaster.h"

namespace gcushare::deviceplugin {

// The options the plugin both registers with and answers
// GetDevicePluginOptions with.
v1beta1::DevicePluginOptions PluginOptions();

class DevicePluginService final : public v1beta1::DevicePlugin::Service {
 public:
  DevicePluginService(DeviceListBroadcaster* lists, Allocator* allocator);

  void Stop();

  grpc::Status GetDevicePluginOptions(
      grpc::ServerContext* context, const v1beta1::Empty* request,
      v1beta1::DevicePluginOptions* response) override;
  grpc::Status ListAndWatch(
      grpc::ServerContext* context, const v1beta1::Empty* request,
      grpc::ServerWriter<v1beta1::ListAndWatchResponse>* writer) override;
  grpc::Status GetPreferredAllocation(
      grpc::ServerContext* context,
      const v1beta1::PreferredAllocationRequest* request,
      v1beta1::PreferredAllocationResponse* response) override;
  grpc::Status Allocate(grpc::ServerContext* context,
                        const v1beta1::AllocateRequest* request,
                        v1beta1::AllocateResponse* response) override;
  grpc::Status PreStartContainer(
      grpc::ServerContext* context,
      const v1beta1::PreStartContainerRequest* request,
      v1beta1::PreStartContainerResponse* response) override;

 private:
  DeviceListBroadcaster* const lists_;
  Allocator* const allocator_;
  std::atomic<bool> stopped_{false};
};

}  // namespace gcushare::deviceplugin

#endif  // GCUSHARE_DEVICE_PLUGIN_DEVICE_PLUGIN_SERVICE_H_
