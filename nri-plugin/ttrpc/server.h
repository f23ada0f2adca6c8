// ttrpc server for unary calls over one logical byte stream (an NRI mux
// connection id).
//
// Handlers are registered by service and method name. Requests are parsed
// on the transport's reader thread and run on a small pool of worker
// threads, so a slow handler does not hold up other calls. Each answer is a
// Response frame on the request's stream id: the handler's payload, or its
// error as google.rpc.Status. Unknown services and methods are answered
// with Unimplemented (code 12), as Go ttrpc does; NRI runtimes from v0.12
// rely on that to fall back to StateChange.
//
// Failure: a frame that is not a Request, a Request that does not parse
// or nests too deep (bounded_parse.h), or a frame over the 4 MiB limit makes
// OnBytes fail and the transport closes the connection (Go ttrpc answers some
// of these and carries on; an NRI plugin reconnects instead, which the runtime
// tolerates). A response that cannot be written is dropped (the connection is
// closing).
//
// Ownership: the sink is borrowed and must outlive Stop(). Thread-safety:
// Register() before traffic; OnBytes() from the reader thread; Stop() from
// any thread but a worker.
#ifndef GCUSHARE_NRI_PLUGIN_TTRPC_SERVER_H_
#define GCUSHARE_NRI_PLUGIN_TTRPC_SERVER_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "base/mutex.h"
#include "nri-plugin/net/byte_stream.h"
#include "nri-plugin/ttrpc/bounded_parse.h"
#include "nri-plugin/ttrpc/client.h"
#include "nri-plugin/ttrpc/frame.h"
#include "status/status.h"

namespace gcushare::nri::ttrpc {

struct RequestContext {
  uint32_t stream_id = 0;
  std::string service;
  std::string method;
  int64_t timeout_nano = 0;
  Metadata metadata;
};

using Handler = std::function<StatusOr<std::string>(
    const RequestContext& context, const std::string& payload)>;

class Server : public ByteReceiver {
 public:
  explicit Server(ByteSink* sink, int workers = 4);
  ~Server() override;  // Stop()

  void Register(const std::string& service, const std::string& method,
                Handler handler);

  // Typed registration: a payload that does not parse as Req, or nests
  // deeper than kMaxProtoNesting, is answered with InvalidArgument (the
  // connection stays).
  template <typename Req, typename Resp>
  void RegisterProto(
      const std::string& service, const std::string& method,
      std::function<StatusOr<Resp>(const RequestContext&, const Req&)> fn) {
    Register(service, method,
             [fn = std::move(fn)](
                 const RequestContext& context,
                 const std::string& payload) -> StatusOr<std::string> {
               Req request;
               Status parsed = ParseBounded(
                   payload, &request,
                   "unmarshal request error: " + context.method + " payload");
               if (!parsed.ok()) return parsed;
               StatusOr<Resp> response = fn(context, request);
               if (!response.ok()) return response.status();
               return response->SerializeAsString();
             });
  }

  Status OnBytes(std::string_view bytes) override;

  // Stops the workers after the calls in progress; queued calls are
  // dropped unanswered.
  void Stop();

 private:
  struct Call {
    RequestContext context;
    std::string payload;
  };
  void Work();
  void Answer(const Call& call);

  ByteSink* sink_;
  FrameDecoder decoder_;                     // Reader thread only.
  std::map<std::string, Handler> handlers_;  // "service/method"
  std::map<std::string, bool> services_;
  base::Mutex mu_;
  base::CondVar cv_;
  std::deque<Call> queue_ GUARDED_BY(mu_);
  bool stopping_ GUARDED_BY(mu_) = false;
  std::vector<std::thread> workers_;
};

}  // namespace gcushare::nri::ttrpc

#endif  // GCUSHARE_NRI_PLUGIN_TTRPC_SERVER_H_
