#include "tests/peers/dra_kubelet/dra_client.h"

#include <set>
#include <utility>

#include "dra-driver/api/dra_v1.grpc.pb.h"
#include "dra-driver/api/dra_v1beta1.grpc.pb.h"
#include "tests/peers/dra_kubelet/plugin_validation.h"

namespace gcushare::peers::dra_kubelet {
namespace {

namespace v1 = ::k8s::io::kubelet::pkg::apis::dra::v1;
namespace v1beta1 = ::k8s::io::kubelet::pkg::apis::dra::v1beta1;

template <typename Request>
Request MakeRequest(const std::vector<ClaimRef>& claims) {
  Request request;
  for (const ClaimRef& claim : claims) {
    auto* out = request.add_claims();
    out->set_namespace_(claim.namespace_name);
    out->set_uid(claim.uid);
    out->set_name(claim.name);
  }
  return request;
}

template <typename Device>
PreparedDevice FromDevice(const Device& device) {
  PreparedDevice out;
  out.request_names.assign(device.request_names().begin(),
                           device.request_names().end());
  out.pool_name = device.pool_name();
  out.device_name = device.device_name();
  out.cdi_device_ids.assign(device.cdi_device_ids().begin(),
                            device.cdi_device_ids().end());
  if constexpr (requires { device.has_share_id(); }) {
    if (device.has_share_id()) out.share_id = device.share_id();
  }
  return out;
}

// The kubelet's checks of the answer's keys.
Status CheckKeys(const std::vector<ClaimRef>& claims,
                 const std::set<std::string>& answered,
                 const std::string& method) {
  std::set<std::string> asked;
  for (const ClaimRef& claim : claims) asked.insert(claim.uid);
  for (const std::string& uid : answered) {
    if (!asked.count(uid)) {
      std::string message = method;
      message += " returned result for unknown claim UID ";
      message += uid;
      return InternalError(message);
    }
  }
  size_t unfinished = asked.size() - answered.size();
  if (unfinished != 0) {
    return InternalError(method + " skipped " + std::to_string(unfinished) +
                         " ResourceClaims");
  }
  return OkStatus();
}

void SetDeadline(grpc::ClientContext& context,
                 std::chrono::milliseconds timeout) {
  context.set_deadline(std::chrono::system_clock::now() + timeout);
}

template <typename Stub, typename Request, typename Response>
StatusOr<PrepareAnswers> Prepare(const std::shared_ptr<grpc::Channel>& channel,
                                 const std::vector<ClaimRef>& claims,
                                 std::chrono::milliseconds timeout) {
  auto stub = Stub::NewStub(channel);
  grpc::ClientContext context;
  SetDeadline(context, timeout);
  Response response;
  grpc::Status status = stub->NodePrepareResources(
      &context, MakeRequest<Request>(claims), &response);
  if (!status.ok()) return FromGrpc(status, "NodePrepareResources");
  PrepareAnswers answers;
  std::set<std::string> answered;
  for (const auto& [uid, result] : response.claims()) {
    answered.insert(uid);
    PrepareAnswer& answer = answers[uid];
    answer.error = result.error();
    for (const auto& device : result.devices()) {
      answer.devices.push_back(FromDevice(device));
    }
  }
  GCUSHARE_RETURN_IF_ERROR(CheckKeys(claims, answered, "NodePrepareResources"));
  return answers;
}

template <typename Stub, typename Request, typename Response>
StatusOr<UnprepareAnswers> Unprepare(
    const std::shared_ptr<grpc::Channel>& channel,
    const std::vector<ClaimRef>& claims, std::chrono::milliseconds timeout) {
  auto stub = Stub::NewStub(channel);
  grpc::ClientContext context;
  SetDeadline(context, timeout);
  Response response;
  grpc::Status status = stub->NodeUnprepareResources(
      &context, MakeRequest<Request>(claims), &response);
  if (!status.ok()) return FromGrpc(status, "NodeUnprepareResources");
  UnprepareAnswers answers;
  std::set<std::string> answered;
  for (const auto& [uid, result] : response.claims()) {
    answered.insert(uid);
    answers[uid] = result.error();
  }
  GCUSHARE_RETURN_IF_ERROR(
      CheckKeys(claims, answered, "NodeUnprepareResources"));
  return answers;
}

}  // namespace

Status FromGrpc(const grpc::Status& status, const std::string& context) {
  if (status.ok()) return OkStatus();
  return Status(static_cast<StatusCode>(status.error_code()),
                context + ": " + status.error_message());
}

StatusOr<PrepareAnswers> CallNodePrepareResources(
    const std::shared_ptr<grpc::Channel>& channel, const std::string& service,
    const std::vector<ClaimRef>& claims, std::chrono::milliseconds timeout) {
  if (service == kServiceV1) {
    return Prepare<v1::DRAPlugin, v1::NodePrepareResourcesRequest,
                   v1::NodePrepareResourcesResponse>(channel, claims, timeout);
  }
  if (service == kServiceV1beta1) {
    return Prepare<v1beta1::DRAPlugin, v1beta1::NodePrepareResourcesRequest,
                   v1beta1::NodePrepareResourcesResponse>(channel, claims,
                                                          timeout);
  }
  return InternalError("internal error: unsupported chosen service: \"" +
                       service + "\"");
}

StatusOr<UnprepareAnswers> CallNodeUnprepareResources(
    const std::shared_ptr<grpc::Channel>& channel, const std::string& service,
    const std::vector<ClaimRef>& claims, std::chrono::milliseconds timeout) {
  if (service == kServiceV1) {
    return Unprepare<v1::DRAPlugin, v1::NodeUnprepareResourcesRequest,
                     v1::NodeUnprepareResourcesResponse>(channel, claims,
                                                         timeout);
  }
  if (service == kServiceV1beta1) {
    return Unprepare<v1beta1::DRAPlugin, v1beta1::NodeUnprepareResourcesRequest,
                     v1beta1::NodeUnprepareResourcesResponse>(channel, claims,
                                                              timeout);
  }
  return InternalError("internal error: unsupported chosen service: \"" +
                       service + "\"");
}

}  // namespace gcushare::peers::dra_kubelet
