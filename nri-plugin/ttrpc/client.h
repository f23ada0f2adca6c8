// ttrpc client for unary calls over one logical byte stream (an NRI mux
// connection id).
//
// Each call gets the next odd stream id (1, 3, 5, ...), sends a Request
// frame {service, method, payload, timeout_nano, metadata} and waits for the
// Response frame with the same stream id. Calls may run concurrently from
// several threads; responses are matched by stream id.
//
// Failure: a Response carrying google.rpc.Status gives that code and
// message; no response within the timeout gives kDeadlineExceeded (a late
// response is then dropped); a closed connection fails pending and later
// calls with kUnavailable. A frame that is not a Response, an unparsable
// Response, or a response to no pending call makes OnBytes fail, and the
// transport closes the connection.
//
// Ownership: the sink is borrowed. Thread-safety: Call() from any thread;
// OnBytes() from the transport's reader thread.
#ifndef GCUSHARE_NRI_PLUGIN_TTRPC_CLIENT_H_
#define GCUSHARE_NRI_PLUGIN_TTRPC_CLIENT_H_

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/mutex.h"
#include "nri-plugin/net/byte_stream.h"
#include "nri-plugin/ttrpc/bounded_parse.h"
#include "nri-plugin/ttrpc/frame.h"
#include "status/status.h"

namespace gcushare::nri::ttrpc {

using Metadata = std::vector<std::pair<std::string, std::string>>;

class Client : public ByteReceiver {
 public:
  explicit Client(ByteSink* sink) : sink_(sink) {}

  // The method's response payload.
  StatusOr<std::string> Call(std::string_view service, std::string_view method,
                             const std::string& payload,
                             std::chrono::nanoseconds timeout,
                             const Metadata& metadata = {});

  // Typed call: serializes `request`, parses the response into Resp
  // (kDataLoss when it does not parse).
  template <typename Resp, typename Req>
  StatusOr<Resp> CallProto(std::string_view service, std::string_view method,
                           const Req& request, std::chrono::nanoseconds timeout,
                           const Metadata& metadata = {}) {
    StatusOr<std::string> bytes =
        Call(service, method, request.SerializeAsString(), timeout, metadata);
    if (!bytes.ok()) return bytes.status();
    Resp response;
    Status parsed = ParseBounded(
        *bytes, &response,
        std::string(service) + "/" + std::string(method) + " response");
    if (!parsed.ok()) return DataLossError(parsed.message());
    return response;
  }

  Status OnBytes(std::string_view bytes) override;

  // The connection is gone: fails pending and future calls with `why`.
  void Fail(const Status& why);

 private:
  struct Pending {
    bool done = false;
    Status status;
    std::string payload;
  };

  ByteSink* sink_;
  FrameDecoder decoder_;  // Used by the reader thread only.
  base::Mutex mu_;
  base::CondVar cv_;
  uint32_t next_stream_ GUARDED_BY(mu_) = 1;
  std::map<uint32_t, std::shared_ptr<Pending>> pending_ GUARDED_BY(mu_);
  std::optional<Status> failed_ GUARDED_BY(mu_);
};

}  // namespace gcushare::nri::ttrpc

#endif  // GCUSHARE_NRI_PLUGIN_TTRPC_CLIENT_H_
