#include "dra-driver/unix_grpc_server.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>

#include "fs/make_dirs.h"

namespace gcushare::dra {

UnixGrpcServer::UnixGrpcServer(std::string socket_path,
                               std::vector<grpc::Service*> services)
    : socket_path_(std::move(socket_path)), services_(std::move(services)) {}

UnixGrpcServer::~UnixGrpcServer() { Stop(); }

Status UnixGrpcServer::Start() {
  Stop();
  std::string dir = std::filesystem::path(socket_path_).parent_path();
  if (Status s = fs::MakeDirectories(dir, 0750); !s.ok()) return s;
  if (::unlink(socket_path_.c_str()) != 0 && errno != ENOENT) {
    return ErrnoToStatus(errno, "removing stale socket " + socket_path_);
  }
  grpc::ServerBuilder builder;
  builder.AddListeningPort("unix:" + socket_path_,
                           grpc::InsecureServerCredentials());
  for (grpc::Service* service : services_) builder.RegisterService(service);
  server_ = builder.BuildAndStart();
  if (server_ == nullptr) {
    return UnavailableError("cannot serve gRPC on " + socket_path_);
  }
  spdlog::info("serving on {}", socket_path_);
  return OkStatus();
}

void UnixGrpcServer::Stop() {
  if (server_ == nullptr) return;
  server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
  server_->Wait();
  server_.reset();
  ::unlink(socket_path_.c_str());
}

}  // namespace gcushare::dra
