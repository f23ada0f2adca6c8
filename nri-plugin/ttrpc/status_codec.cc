#include "nri-plugin/ttrpc/status_codec.h"

namespace gcushare::nri::ttrpc {

Status FromRpcStatus(const google::rpc::Status& status) {
  if (status.code() == 0) return OkStatus();
  StatusCode code = status.code() > 0 && status.code() <= 16
                        ? static_cast<StatusCode>(status.code())
                        : StatusCode::kUnknown;
  return Status(code, status.message());
}

google::rpc::Status ToRpcStatus(const Status& status) {
  google::rpc::Status out;
  out.set_code(static_cast<int32_t>(status.code()));
  out.set_message(status.message());
  return out;
}

}  // namespace gcushare::nri::ttrpc
