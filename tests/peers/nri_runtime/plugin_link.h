// One plugin's socket as containerd's NRI side sees it, built only on the
// stand-in's own codecs (socket.h, mux_codec.h, ttrpc_codec.h), never on the
// plugin's transport:
//   - connection 1: the runtime is the ttrpc client of the plugin's Plugin
//     service. Call() numbers its streams 1, 3, 5, ... and waits for the
//     Response with the same stream id;
//   - connection 2: the runtime serves its Runtime service. Each Request is
//     answered by the method's handler (on the reader thread; handlers must
//     not block), unknown services or methods with Unimplemented (code 12)
//     as Go ttrpc does.
// Frames for other connection ids are dropped, as upstream's multiplexer
// does.
//
// Failure: the link closes (and every pending or later Call fails with
// kUnavailable) when the plugin closes the socket, a read or write fails,
// a mux or ttrpc frame is over its limit, a frame does not decode, a
// Request arrives on connection 1 or a Response on 2, or Close() is
// called. A Call without an answer in time is kDeadlineExceeded (a late
// answer is dropped); an answer carrying google.rpc.Status gives that code
// and message.
//
// Ownership: owns the socket and one reader thread (joined by the
// destructor). Thread-safety: Call, WriteRaw, Close, WaitClosed and
// closed() from any thread; on_closed runs once, on the reader thread.
#ifndef GCUSHARE_TESTS_PEERS_NRI_RUNTIME_PLUGIN_LINK_H_
#define GCUSHARE_TESTS_PEERS_NRI_RUNTIME_PLUGIN_LINK_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "base/mutex.h"
#include "status/status.h"
#include "tests/peers/nri_runtime/mux_codec.h"
#include "tests/peers/nri_runtime/socket.h"
#include "tests/peers/nri_runtime/ttrpc_codec.h"

namespace gcushare::nri_runtime {

// Answers one Runtime-service request: the response payload or an error
// (sent as google.rpc.Status).
using RuntimeMethod =
    std::function<StatusOr<std::string>(const TtrpcRequest& request)>;

class PluginLink {
 public:
  // `methods` by method name, for service `runtime_service`.
  PluginLink(Fd fd, std::string runtime_service,
             std::map<std::string, RuntimeMethod> methods,
             std::function<void(const Status&)> on_closed);
  ~PluginLink();  // Close() and join the reader.
  PluginLink(const PluginLink&) = delete;
  PluginLink& operator=(const PluginLink&) = delete;

  // A unary call on connection 1; the answer's payload.
  StatusOr<std::string> Call(std::string_view service, std::string_view method,
                             std::string payload,
                             std::chrono::milliseconds timeout,
                             const TtrpcMetadata& metadata = {});

  // Raw bytes in one mux frame on `conn_id` (tests of bad input).
  Status WriteRaw(uint32_t conn_id, std::string_view bytes);

  void Close() EXCLUDES(write_mu_);
  bool WaitClosed(std::chrono::milliseconds timeout) EXCLUDES(mu_);
  bool closed() const { return closed_.load(); }

 private:
  // Guarded by the link's mu_.
  struct Pending {
    bool done = false;
    TtrpcResponse response;
  };

  Status Send(std::string_view frames) EXCLUDES(write_mu_);
  void ReadLoop();
  Status OnChunk(const MuxChunk& chunk);
  Status OnResponse(const TtrpcFrame& frame);
  Status OnRequest(const TtrpcFrame& frame);
  void Finish(const Status& why);

  Fd fd_;
  const std::string runtime_service_;
  const std::map<std::string, RuntimeMethod> methods_;
  std::function<void(const Status&)> on_closed_;
  // Reader thread only.
  MuxReader mux_;
  TtrpcReader responses_;  // Connection 1.
  TtrpcReader requests_;   // Connection 2.

  base::Mutex write_mu_;  // Keeps each message's frames contiguous.
  base::Mutex mu_;
  base::CondVar cv_;
  uint32_t next_stream_ GUARDED_BY(mu_) = 1;
  std::map<uint32_t, std::shared_ptr<Pending>> calls_ GUARDED_BY(mu_);
  std::optional<Status> ended_ GUARDED_BY(mu_);
  std::atomic<bool> closing_{false};  // Close() was called.
  std::atomic<bool> closed_{false};
  std::thread reader_;
};

}  // namespace gcushare::nri_runtime

#endif  // GCUSHARE_TESTS_PEERS_NRI_RUNTIME_PLUGIN_LINK_H_
