// NRI's multiplexer framing (containerd/nri pkg/net/multiplex;
// docs/protocols.md 4.1): one socket ("trunk") carries several logical byte
// streams, each chunk as
//   uint32 connection id, big-endian
//   uint32 payload length N, big-endian
//   N payload bytes
// Connection 1 carries the plugin's ttrpc service (the runtime calls),
// connection 2 the runtime's (the plugin calls); 0 is reserved. There is no
// open/close signalling. A logical stream's message may span several mux
// frames; the receiver concatenates payloads per connection id.
//
// Pure encoding and an incremental decoder. Thread-compatible values.
#ifndef GCUSHARE_NRI_PLUGIN_MUX_FRAME_H_
#define GCUSHARE_NRI_PLUGIN_MUX_FRAME_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "status/status.h"

namespace gcushare::nri::mux {

inline constexpr size_t kMuxHeaderSize = 8;
inline constexpr uint32_t kPluginServiceConn = 1;
inline constexpr uint32_t kRuntimeServiceConn = 2;

// What we send per frame: Go readers in NRI v0.12.2 read through 4 KiB
// buffers and fail on bigger frames (docs/protocols.md 4.1), so larger writes
// are split into 4096-byte chunks.
inline constexpr size_t kMaxWriteChunk = 4096;
// What we accept per frame: NRI v0.3-v0.6 senders wrote frames of up to
// 16 MiB unsplit.
inline constexpr uint32_t kMaxReadPayload = 16 << 20;

struct MuxFrame {
  uint32_t conn_id = 0;
  std::string payload;
};

// The frames that carry `bytes` on `conn_id`: one when it fits in `chunk`
// bytes, else consecutive chunks. Empty input gives no frame.
std::string EncodeMuxFrames(uint32_t conn_id, std::string_view bytes,
                            size_t chunk = kMaxWriteChunk);

class MuxDecoder {
 public:
  explicit MuxDecoder(uint32_t max_payload = kMaxReadPayload)
      : max_payload_(max_payload) {}

  void Append(std::string_view bytes) { buffer_.append(bytes); }

  // The next complete frame, or nullopt until more bytes arrive;
  // ResourceExhausted when a header announces more than the maximum.
  StatusOr<std::optional<MuxFrame>> Next();

  size_t buffered() const { return buffer_.size() - offset_; }

 private:
  uint32_t max_payload_;
  std::string buffer_;
  size_t offset_ = 0;
};

}  // namespace gcushare::nri::mux

#endif  // GCUSHARE_NRI_PLUGIN_MUX_FRAME_H_
