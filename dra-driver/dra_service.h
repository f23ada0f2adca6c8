// The kubelet's DRAPlugin service, v1 and v1beta1, over one ClaimHandler.
//
// kubelet 1.34+ calls v1 (and reads share_id from 1.35); 1.32-1.33 call
// v1beta1. Both map a request's claims to ClaimRefs and the handler's
// per-claim outcomes back, with an entry for every claim asked. A claim
// lacking namespace, uid or name gets an error entry of its own (keyed by
// its uid, or "" when that is what is missing) and is not handed on.
//
// Ownership: borrows the handler, which must outlive the services.
// Thread-safety: gRPC calls them concurrently; the handler is thread-safe.
#ifndef GCUSHARE_DRA_DRIVER_DRA_SERVICE_H_
#define GCUSHARE_DRA_DRIVER_DRA_SERVICE_H_

#include "dra-driver/api/dra_v1.grpc.pb.h"
#include "dra-driver/api/dra_v1beta1.grpc.pb.h"
#include "dra-driver/claim_handler.h"

namespace gcushare::dra {

class DraServiceV1 final
    : public k8s::io::kubelet::pkg::apis::dra::v1::DRAPlugin::Service {
 public:
  explicit DraServiceV1(ClaimHandler* handler) : handler_(handler) {}
  grpc::Status NodePrepareResources(
      grpc::ServerContext* context,
      const k8s::io::kubelet::pkg::apis::dra::v1::NodePrepareResourcesRequest*
          request,
      k8s::io::kubelet::pkg::apis::dra::v1::NodePrepareResourcesResponse*
          response) override;
  grpc::Status NodeUnprepareResources(
      grpc::ServerContext* context,
      const k8s::io::kubelet::pkg::apis::dra::v1::NodeUnprepareResourcesRequest*
          request,
      k8s::io::kubelet::pkg::apis::dra::v1::NodeUnprepareResourcesResponse*
          response) override;

 private:
  ClaimHandler* const handler_;
};

class DraServiceV1beta1 final
    : public k8s::io::kubelet::pkg::apis::dra::v1beta1::DRAPlugin::Service {
 public:
  explicit DraServiceV1beta1(ClaimHandler* handler) : handler_(handler) {}
  grpc::Status NodePrepareResources(
      grpc::ServerContext* context,
      const k8s::io::kubelet::pkg::apis::dra::v1beta1::
          NodePrepareResourcesRequest* request,
      k8s::io::kubelet::pkg::apis::dra::v1beta1::NodePrepareResourcesResponse*
          response) override;
  grpc::Status NodeUnprepareResources(
      grpc::ServerContext* context,
      const k8s::io::kubelet::pkg::apis::dra::v1beta1::
          NodeUnprepareResourcesRequest* request,
      k8s::io::kubelet::pkg::apis::dra::v1beta1::NodeUnprepareResourcesResponse*
          response) override;

 private:
  ClaimHandler* const handler_;
};

}  // namespace gcushare::dra

#endif  // GCUSHARE_DRA_DRIVER_DRA_SERVICE_H_
