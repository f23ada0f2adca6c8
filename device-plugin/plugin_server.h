// PluginServer: the gRPC server that serves DevicePluginService on a unix
// socket in the device-plugin directory (<dir>/<endpoint>).
//
// Restart() stops any running server (ending its ListAndWatch streams),
// removes a stale socket file, and serves again on a fresh socket: what the
// plugin does after kubelet deleted the directory's sockets on restart.
//
// Ownership: owns the gRPC server and its service; borrows the broadcaster
// and allocator. Thread-safety: Restart()/Stop() are serialised internally
// and may be called from any thread.
// Failure: Restart() returns Unavailable naming the socket when gRPC cannot
// listen on it.
#ifndef GCUSHARE_DEVICE_PLUGIN_PLUGIN_SERVER_H_
#define GCUSHARE_DEVICE_PLUGIN_PLUGIN_SERVER_H_

#include <grpcpp/grpcpp.h>

#include <memory>
#include <string>

#include "base/mutex.h"
#include "base/thread_annotations.h"
#include "device-plugin/allocator.h"
#include "device-plugin/device_list_broadcaster.h"
#include "device-plugin/device_plugin_service.h"
#include "status/status.h"

namespace gcushare::deviceplugin {

// What the registration loop needs from the server.
class ServingControl {
 public:
  virtual ~ServingControl() = default;
  // (Re)starts serving on a fresh socket.
  virtual Status Restart() = 0;
};

class PluginServer : public ServingControl {
 public:
  PluginServer(std::string socket_path, DeviceListBroadcaster* lists,
               Allocator* allocator);
  ~PluginServer() override;

  Status Restart() override;
  void Stop();

  const std::string& socket_path() const { return socket_path_; }

 private:
  void StopLocked() REQUIRES(mu_);

  const std::string socket_path_;
  DeviceListBroadcaster* const lists_;
  Allocator* const allocator_;

  base::Mutex mu_;
  std::unique_ptr<DevicePluginService> service_ GUARDED_BY(mu_);
  std::unique_ptr<grpc::Server> server_ GUARDED_BY(mu_);
};

}  // namespace gcushare::deviceplugin

#endif  // GCUSHARE_DEVICE_PLUGIN_PLUGIN_SERVER_H_
