// ttrpc framing (containerd/ttrpc PROTOCOL.md; docs/protocols.md 4.1): every
// message is a 10-byte big-endian header
//   uint32 length (of the data, header excluded; at most 4 MiB)
//   uint32 stream id (client streams are odd: 1, 3, 5, ...)
//   uint8  type (1 request, 2 response, 3 data)
//   uint8  flags (0 for unary calls, the only kind NRI uses)
// followed by `length` bytes of protobuf.
//
// Pure encoding and an incremental decoder that reassembles frames from a
// byte stream cut at arbitrary points. Thread-compatible values.
#ifndef GCUSHARE_NRI_PLUGIN_TTRPC_FRAME_H_
#define GCUSHARE_NRI_PLUGIN_TTRPC_FRAME_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "status/status.h"

namespace gcushare::nri::ttrpc {

inline constexpr size_t kFrameHeaderSize = 10;
inline constexpr uint32_t kMaxMessageLength = 4 << 20;  // 4 MiB

enum class FrameType : uint8_t { kRequest = 1, kResponse = 2, kData = 3 };

struct FrameHeader {
  uint32_t length = 0;
  uint32_t stream_id = 0;
  uint8_t type = 0;
  uint8_t flags = 0;

  friend bool operator==(const FrameHeader&, const FrameHeader&) = default;
};

struct Frame {
  FrameHeader header;
  std::string data;
};

// The 10 header bytes.
std::string EncodeFrameHeader(const FrameHeader& header);
// Reads a header from 10 bytes at `bytes`.
FrameHeader DecodeFrameHeader(const char* bytes);

// Header + data. ResourceExhausted when data is over kMaxMessageLength.
StatusOr<std::string> EncodeFrame(uint32_t stream_id, FrameType type,
                                  uint8_t flags, std::string_view data);

// Reassembles frames from a byte stream.
class FrameDecoder {
 public:
  explicit FrameDecoder(uint32_t max_length = kMaxMessageLength)
      : max_length_(max_length) {}

  void Append(std::string_view bytes) { buffer_.append(bytes); }

  // The next complete frame, or nullopt until more bytes arrive.
  // ResourceExhausted when a header announces more than the maximum length:
  // the stream cannot be resynchronised after that.
  StatusOr<std::optional<Frame>> Next();

  // Bytes received but not yet returned as a frame.
  size_t buffered() const { return buffer_.size() - offset_; }

 private:
  uint32_t max_length_;
  std::string buffer_;
  size_t offset_ = 0;  // Start of the first unreturned byte in buffer_.
};

}  // namespace gcushare::nri::ttrpc

#endif  // GCUSHARE_NRI_PLUGIN_TTRPC_FRAME_H_
