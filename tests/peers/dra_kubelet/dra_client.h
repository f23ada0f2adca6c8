// The kubelet's client side of the DRA plugin service: NodePrepareResources
// and NodeUnprepareResources over an existing channel, with the stub of the
// service version chosen at registration ("v1.DRAPlugin" or
// "v1beta1.DRAPlugin"), a per-call deadline (the kubelet's 45 s), and the
// kubelet's checks of the answer (pkg/kubelet/cm/dra/manager.go):
//   - an entry for a claim UID that was not asked for is an error;
//   - a claim of the request left out of the answer is an error
//     ("NodePrepareResources skipped 1 ResourceClaims");
//   - a per-claim error string is returned as part of the answer (the
//     caller decides; the kubelet fails the pod on it).
// share_id is read from v1 answers only (v1beta1 has no such field).
//
// Stateless functions; thread-safe. Transport failures come back as a
// Status with the gRPC code mapped to StatusCode and the message prefixed
// with the method name ("NodePrepareResources: ...").
#ifndef GCUSHARE_TESTS_PEERS_DRA_KUBELET_DRA_CLIENT_H_
#define GCUSHARE_TESTS_PEERS_DRA_KUBELET_DRA_CLIENT_H_

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "status/status.h"
#include "tests/peers/dra_kubelet/pod_claims.h"

namespace gcushare::peers::dra_kubelet {

// The Claim message: all three fields are required by the API.
struct ClaimRef {
  std::string namespace_name;
  std::string uid;
  std::string name;
};

// One claim's answer to NodePrepareResources.
struct PrepareAnswer {
  std::vector<PreparedDevice> devices;
  std::string error;  // Non-empty: preparing failed, devices are ignored.
};

// Per claim UID.
using PrepareAnswers = std::map<std::string, PrepareAnswer>;
using UnprepareAnswers = std::map<std::string, std::string>;  // UID -> error

StatusOr<PrepareAnswers> CallNodePrepareResources(
    const std::shared_ptr<grpc::Channel>& channel, const std::string& service,
    const std::vector<ClaimRef>& claims, std::chrono::milliseconds timeout);

StatusOr<UnprepareAnswers> CallNodeUnprepareResources(
    const std::shared_ptr<grpc::Channel>& channel, const std::string& service,
    const std::vector<ClaimRef>& claims, std::chrono::milliseconds timeout);

// A gRPC status as a Status ("<context>: <message>"), same code.
Status FromGrpc(const grpc::Status& status, const std::string& context);

}  // namespace gcushare::peers::dra_kubelet

#endif  // GCUSHARE_TESTS_PEERS_DRA_KUBELET_DRA_CLIENT_H_
