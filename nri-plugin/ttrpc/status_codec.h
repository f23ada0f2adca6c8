// ttrpc carries errors as google.rpc.Status with gRPC code numbers, which
// are the numbers of our StatusCode. Pure conversions.
#ifndef GCUSHARE_NRI_PLUGIN_TTRPC_STATUS_CODEC_H_
#define GCUSHARE_NRI_PLUGIN_TTRPC_STATUS_CODEC_H_

#include "nri-plugin/api/rpc_status.pb.h"
#include "status/status.h"

namespace gcushare::nri::ttrpc {

// OK for code 0; codes outside 1..16 become kUnknown (message kept).
Status FromRpcStatus(const google::rpc::Status& status);
google::rpc::Status ToRpcStatus(const Status& status);

}  // namespace gcushare::nri::ttrpc

#endif  // GCUSHARE_NRI_PLUGIN_TTRPC_STATUS_CODEC_H_
