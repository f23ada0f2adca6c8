// UnixGrpcServer: a gRPC server on one unix socket, serving services it
// borrows. Start() removes a stale socket file left by an earlier run,
// creates the socket's directory when missing, and serves; Stop() ends
// open calls (2 s grace), waits for them and removes the socket, so that the
// kubelet never dials a socket nobody serves.
//
// Ownership: owns the grpc::Server; borrows the services, which must outlive
// Stop(). Thread-safety: Start/Stop from one thread (the driver's).
// Failure: Start() returns Unavailable naming the socket when gRPC cannot
// listen on it, or the errno of removing a stale socket.
#ifndef GCUSHARE_DRA_DRIVER_UNIX_GRPC_SERVER_H_
#define GCUSHARE_DRA_DRIVER_UNIX_GRPC_SERVER_H_

#include <grpcpp/grpcpp.h>

#include <memory>
#include <string>
#include <vector>

#include "status/status.h"

namespace gcushare::dra {

class UnixGrpcServer {
 public:
  UnixGrpcServer(std::string socket_path, std::vector<grpc::Service*> services);
  ~UnixGrpcServer();  // Stops.
  UnixGrpcServer(const UnixGrpcServer&) = delete;
  UnixGrpcServer& operator=(const UnixGrpcServer&) = delete;

  Status Start();
  void Stop();  // Idempotent.
  const std::string& socket_path() const { return socket_path_; }

 private:
  const std::string socket_path_;
  const std::vector<grpc::Service*> services_;
  std::unique_ptr<grpc::Server> server_;
};

}  // namespace gcushare::dra

#endif  // GCUSHARE_DRA_DRIVER_UNIX_GRPC_SERVER_H_
