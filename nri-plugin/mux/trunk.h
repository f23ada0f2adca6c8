// Trunk: one connected NRI socket, demultiplexed into logical byte streams
// by connection id (see mux/frame.h).
//
//   Trunk trunk(std::move(fd), options);
//   trunk.Attach(kPluginServiceConn, &ttrpc_server);   // before Start
//   ByteSink* out = trunk.Sink(kRuntimeServiceConn);
//   trunk.Start([](Status why) { ... });
//   ...
//   trunk.Close();  trunk.Join();
//
// A reader thread reads the socket, reassembles mux frames (short reads and
// headers that arrive alone are normal) and hands each payload to the
// receiver attached to its connection id. The trunk closes, and
// `on_closed` runs once on the reader thread, when the peer closes the
// socket or a read fails, when a frame is over the size limit, when a
// receiver reports a corrupt stream, on a frame for an unattached
// connection id (unless options say to drop those, as upstream NRI does),
// or when Close() is called.
//
// Writes may come from any thread; each Write's frames go out contiguously
// (one send of header and payload per call).
//
// Ownership: owns the socket. Receivers are borrowed and must outlive
// Join(). Thread-safety: Sink()/Close() from any thread; Attach() and
// Start() before traffic; Join() not from the reader thread (on_closed must
// not destroy the trunk).
#ifndef GCUSHARE_NRI_PLUGIN_MUX_TRUNK_H_
#define GCUSHARE_NRI_PLUGIN_MUX_TRUNK_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string_view>
#include <thread>

#include "base/mutex.h"
#include "nri-plugin/mux/frame.h"
#include "nri-plugin/net/byte_stream.h"
#include "nri-plugin/net/unix_socket.h"
#include "status/status.h"

namespace gcushare::nri::mux {

struct TrunkOptions {
  uint32_t max_read_payload = kMaxReadPayload;
  size_t write_chunk = kMaxWriteChunk;
  // Upstream drops frames for connection ids nobody opened. A plugin only
  // ever expects ids 1 and 2, and a strange id means the byte stream is out
  // of step, so by default we close the trunk instead.
  bool close_on_unknown_conn = true;
  // A send that cannot progress for this long fails and closes the trunk.
  std::chrono::milliseconds send_timeout{10000};
};

class Trunk {
 public:
  Trunk(UniqueFd fd, TrunkOptions options = {});
  ~Trunk();  // Close() and Join().
  Trunk(const Trunk&) = delete;
  Trunk& operator=(const Trunk&) = delete;

  void Attach(uint32_t conn_id, ByteReceiver* receiver);
  // A sink writing to `conn_id`; owned by the trunk.
  ByteSink* Sink(uint32_t conn_id);

  void Start(std::function<void(const Status&)> on_closed);

  // Sends `bytes` on `conn_id`, split into frames.
  Status Write(uint32_t conn_id, std::string_view bytes);

  // Ends the connection: the reader stops and later writes fail.
  void Close();
  // Waits for the reader thread (after on_closed ran).
  void Join();
  // Waits up to `timeout` for the trunk to close; true when closed.
  bool WaitClosed(std::chrono::milliseconds timeout);

  bool closed() const { return closed_.load(); }
  // Why the trunk closed (OK while open).
  Status close_reason() const;

 private:
  class ConnSink;
  void ReadLoop();
  void Finish(const Status& reason);

  UniqueFd fd_;
  TrunkOptions options_;
  std::map<uint32_t, ByteReceiver*> receivers_;
  std::map<uint32_t, std::unique_ptr<ConnSink>> sinks_ GUARDED_BY(sinks_mu_);
  base::Mutex sinks_mu_;
  base::Mutex write_mu_;
  std::function<void(const Status&)> on_closed_;
  std::thread reader_;
  std::atomic<bool> closing_{false};
  std::atomic<bool> closed_{false};
  mutable base::Mutex state_mu_;
  base::CondVar state_cv_;
  Status close_reason_ GUARDED_BY(state_mu_);
};

}  // namespace gcushare::nri::mux

#endif  // GCUSHARE_NRI_PLUGIN_MUX_TRUNK_H_
