#include "device-plugin/kubelet_registrar.h"

#include <grpcpp/grpcpp.h>

#include "device-plugin/api/api.grpc.pb.h"

namespace gcushare::deviceplugin {

GrpcKubeletRegistrar::GrpcKubeletRegistrar(std::string kubelet_socket,
                                           std::chrono::milliseconds timeout)
    : kubelet_socket_(std::move(kubelet_socket)), timeout_(timeout) {}

Status GrpcKubeletRegistrar::Register(const v1beta1::RegisterRequest& request) {
  std::shared_ptr<grpc::Channel> channel = grpc::CreateChannel(
      "unix:" + kubelet_socket_, grpc::InsecureChannelCredentials());
  std::unique_ptr<v1beta1::Registration::Stub> stub =
      v1beta1::Registration::NewStub(channel);
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + timeout_);
  v1beta1::Empty empty;
  grpc::Status status = stub->Register(&context, request, &empty);
  if (status.ok()) return OkStatus();
  std::string message = "Register with kubelet at " + kubelet_socket_ + ": " +
                        status.error_message();
  switch (status.error_code()) {
    case grpc::StatusCode::UNAVAILABLE:
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return UnavailableError(message);
    default:
      return Status(static_cast<StatusCode>(status.error_code()), message);
  }
}

}  // namespace gcushare::deviceplugin
