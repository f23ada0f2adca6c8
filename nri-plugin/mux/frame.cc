#include "nri-plugin/mux/frame.h"

#include "nri-plugin/net/big_endian.h"

namespace gcushare::nri::mux {

std::string EncodeMuxFrames(uint32_t conn_id, std::string_view bytes,
                            size_t chunk) {
  std::string out;
  if (chunk == 0) chunk = kMaxWriteChunk;
  size_t frames = (bytes.size() + chunk - 1) / chunk;
  out.reserve(bytes.size() + frames * kMuxHeaderSize);
  for (size_t at = 0; at < bytes.size(); at += chunk) {
    std::string_view part = bytes.substr(at, chunk);
    char header[kMuxHeaderSize];
    PutBigEndian32(header, conn_id);
    PutBigEndian32(header + 4, static_cast<uint32_t>(part.size()));
    out.append(header, kMuxHeaderSize);
    out.append(part);
  }
  return out;
}

StatusOr<std::optional<MuxFrame>> MuxDecoder::Next() {
  if (buffered() < kMuxHeaderSize) return std::optional<MuxFrame>();
  const char* p = buffer_.data() + offset_;
  uint32_t conn = GetBigEndian32(p);
  uint32_t length = GetBigEndian32(p + 4);
  if (length > max_payload_) {
    return ResourceExhaustedError(
        "mux frame for connection " + std::to_string(conn) + " announces " +
        std::to_string(length) + " bytes, over the limit of " +
        std::to_string(max_payload_));
  }
  if (buffered() < kMuxHeaderSize + length) return std::optional<MuxFrame>();
  MuxFrame frame;
  frame.conn_id = conn;
  frame.payload = buffer_.substr(offset_ + kMuxHeaderSize, length);
  offset_ += kMuxHeaderSize + length;
  if (offset_ == buffer_.size()) {
    buffer_.clear();
    offset_ = 0;
  } else if (offset_ > 4096 && offset_ * 2 > buffer_.size()) {
    buffer_.erase(0, offset_);
    offset_ = 0;
  }
  return std::optional<MuxFrame>(std::move(frame));
}

}  // namespace gcushare::nri::mux
