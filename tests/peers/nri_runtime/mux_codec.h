// The stand-in runtime's own codec of NRI's multiplexer (containerd/nri
// pkg/net/multiplex), written from the wire facts (docs/protocols.md 4.1)
// and the containerd 1.7.13 capture (tests/conformance/CAPTURES.md), not
// from the plugin's nri-plugin/mux: a codec bug must not appear on both
// sides of a test. mux_conformance_test checks both codecs read the
// captured bytes alike.
//
// A frame is a big-endian uint32 connection id, a big-endian uint32 payload
// length N and N payload bytes. Connection 1 carries the plugin's ttrpc
// service (the runtime calls), 2 the runtime's (the plugin calls).
//
// Pure functions and an incremental reader; thread-compatible values.
#ifndef GCUSHARE_TESTS_PEERS_NRI_RUNTIME_MUX_CODEC_H_
#define GCUSHARE_TESTS_PEERS_NRI_RUNTIME_MUX_CODEC_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "status/status.h"

namespace gcushare::nri_runtime {

inline constexpr size_t kMuxHeaderBytes = 8;
inline constexpr uint32_t kPluginConnId = 1;
inline constexpr uint32_t kRuntimeConnId = 2;
// Go ttrpc writes through a 4,096-byte bufio.Writer: a message longer than
// that leaves as one 4,096-byte frame and then the rest (the capture's
// Synchronize: 4096 + 6013).
inline constexpr size_t kTtrpcWriteBuffer = 4096;
// NRI v0.7+ splits the rest at ttrpc's 10-byte header + 4 MiB.
inline constexpr size_t kMaxMuxWrite = 10 + (4u << 20);
// What the reader accepts per frame (NRI up to v0.6 wrote up to 16 MiB).
inline constexpr uint32_t kMaxMuxRead = 16u << 20;

struct MuxChunk {
  uint32_t conn_id = 0;
  std::string payload;
};

// One frame carrying `payload` (at most kMaxMuxRead bytes).
std::string EncodeMuxChunk(uint32_t conn_id, std::string_view payload);

// The frames a Go NRI runtime writes for one ttrpc message: as
// kTtrpcWriteBuffer explains. Empty input gives no frame.
std::string EncodeMuxMessage(uint32_t conn_id, std::string_view message);

// Reassembles frames from a socket's byte stream cut anywhere.
class MuxReader {
 public:
  void Append(std::string_view bytes) { buffer_.append(bytes); }
  // The next whole frame, nullopt until more bytes arrive;
  // ResourceExhausted when a header announces more than kMaxMuxRead (the
  // stream cannot be resynchronised).
  StatusOr<std::optional<MuxChunk>> Next();
  size_t pending_bytes() const { return buffer_.size() - start_; }

 private:
  std::string buffer_;
  size_t start_ = 0;
};

// Big-endian helpers shared by the stand-in's codecs.
void PutUint32(uint32_t value, std::string& out);
uint32_t GetUint32(std::string_view bytes, size_t at);

}  // namespace gcushare::nri_runtime

#endif  // GCUSHARE_TESTS_PEERS_NRI_RUNTIME_MUX_CODEC_H_
