#include "dra-driver/dra_service.h"

#include <spdlog/spdlog.h>

#include <string>
#include <vector>

namespace gcushare::dra {
namespace {

namespace v1 = k8s::io::kubelet::pkg::apis::dra::v1;
namespace v1beta1 = k8s::io::kubelet::pkg::apis::dra::v1beta1;

// The claims of a request that name all three fields; the others get an
// error in `invalid` (keyed by uid).
template <typename Request>
std::vector<ClaimRef> ValidClaims(const Request& request,
                                  std::map<std::string, std::string>* invalid) {
  std::vector<ClaimRef> claims;
  for (const auto& claim : request.claims()) {
    if (claim.namespace_().empty() || claim.uid().empty() ||
        claim.name().empty()) {
      (*invalid)[claim.uid()] = "claim \"" + claim.namespace_() + "/" +
                                claim.name() + "\" (uid \"" + claim.uid() +
                                "\"): namespace, uid and name are all required";
      continue;
    }
    claims.push_back({claim.namespace_(), claim.uid(), claim.name()});
  }
  return claims;
}

template <typename Response, bool kHasShareId>
void FillPrepare(const std::map<std::string, PrepareOutcome>& outcomes,
                 const std::map<std::string, std::string>& invalid,
                 Response* response) {
  auto& claims = *response->mutable_claims();
  for (const auto& [uid, outcome] : outcomes) {
    auto& entry = claims[uid];
    if (!outcome.error.empty()) {
      entry.set_error(outcome.error);
      continue;
    }
    for (const PreparedDevice& device : outcome.devices) {
      auto* out = entry.add_devices();
      for (const std::string& name : device.request_names) {
        out->add_request_names(name);
      }
      out->set_pool_name(device.pool_name);
      out->set_device_name(device.device_name);
      for (const std::string& id : device.cdi_device_ids) {
        out->add_cdi_device_ids(id);
      }
      if constexpr (kHasShareId) {
        if (device.share_id) out->set_share_id(*device.share_id);
      }
    }
  }
  for (const auto& [uid, error] : invalid) claims[uid].set_error(error);
}

template <typename Response>
void FillUnprepare(const std::map<std::string, std::string>& outcomes,
                   const std::map<std::string, std::string>& invalid,
                   Response* response) {
  auto& claims = *response->mutable_claims();
  for (const auto& [uid, error] : outcomes) claims[uid].set_error(error);
  for (const auto& [uid, error] : invalid) claims[uid].set_error(error);
}

template <bool kHasShareId, typename Request, typename Response>
grpc::Status Prepare(ClaimHandler* handler, std::string_view version,
                     const Request& request, Response* response) {
  std::map<std::string, std::string> invalid;
  std::vector<ClaimRef> claims = ValidClaims(request, &invalid);
  spdlog::debug("NodePrepareResources ({}): {} claims", version,
                request.claims_size());
  FillPrepare<Response, kHasShareId>(handler->Prepare(claims), invalid,
                                     response);
  return grpc::Status::OK;
}

template <typename Request, typename Response>
grpc::Status Unprepare(ClaimHandler* handler, std::string_view version,
                       const Request& request, Response* response) {
  std::map<std::string, std::string> invalid;
  std::vector<ClaimRef> claims = ValidClaims(request, &invalid);
  spdlog::debug("NodeUnprepareResources ({}): {} claims", version,
                request.claims_size());
  FillUnprepare(handler->Unprepare(claims), invalid, response);
  return grpc::Status::OK;
}

}  // namespace

grpc::Status DraServiceV1::NodePrepareResources(
    grpc::ServerContext*, const v1::NodePrepareResourcesRequest* request,
    v1::NodePrepareResourcesResponse* response) {
  return Prepare<true>(handler_, "v1", *request, response);
}

grpc::Status DraServiceV1::NodeUnprepareResources(
    grpc::ServerContext*, const v1::NodeUnprepareResourcesRequest* request,
    v1::NodeUnprepareResourcesResponse* response) {
  return Unprepare(handler_, "v1", *request, response);
}

grpc::Status DraServiceV1beta1::NodePrepareResources(
    grpc::ServerContext*, const v1beta1::NodePrepareResourcesRequest* request,
    v1beta1::NodePrepareResourcesResponse* response) {
  return Prepare<false>(handler_, "v1beta1", *request, response);
}

grpc::Status DraServiceV1beta1::NodeUnprepareResources(
    grpc::ServerContext*, const v1beta1::NodeUnprepareResourcesRequest* request,
    v1beta1::NodeUnprepareResourcesResponse* response) {
  return Unprepare(handler_, "v1beta1", *request, response);
}

}  // namespace gcushare::dra
