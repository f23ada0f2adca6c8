#include "device-plugin/plugin_server.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>

#include "base/mutex.h"

namespace gcushare::deviceplugin {

PluginServer::PluginServer(std::string socket_path,
                           DeviceListBroadcaster* lists, Allocator* allocator)
    : socket_path_(std::move(socket_path)),
      lists_(lists),
      allocator_(allocator) {}

PluginServer::~PluginServer() { Stop(); }

Status PluginServer::Restart() {
  base::MutexLock lock(mu_);
  StopLocked();
  if (::unlink(socket_path_.c_str()) != 0 && errno != ENOENT) {
    return ErrnoToStatus(errno, "removing stale socket " + socket_path_);
  }
  auto service = std::make_unique<DevicePluginService>(lists_, allocator_);
  grpc::ServerBuilder builder;
  builder.AddListeningPort("unix:" + socket_path_,
                           grpc::InsecureServerCredentials());
  builder.RegisterService(service.get());
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  if (server == nullptr) {
    return UnavailableError("cannot serve the device plugin API on " +
                            socket_path_);
  }
  service_ = std::move(service);
  server_ = std::move(server);
  spdlog::info("serving the device plugin API on {}", socket_path_);
  return OkStatus();
}

void PluginServer::Stop() {
  base::MutexLock lock(mu_);
  StopLocked();
}

void PluginServer::StopLocked() {
  if (server_ == nullptr) return;
  service_->Stop();
  server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
  server_->Wait();
  server_.reset();
  service_.reset();
  // Leave no socket that nobody serves: kubelet would dial it.
  ::unlink(socket_path_.c_str());
}

}  // namespace gcushare::deviceplugin
