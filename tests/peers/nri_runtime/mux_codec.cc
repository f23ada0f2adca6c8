#include "tests/peers/nri_runtime/mux_codec.h"

#include <algorithm>

namespace gcushare::nri_runtime {

void PutUint32(uint32_t value, std::string& out) {
  out += static_cast<char>((value >> 24) & 0xFF);
  out += static_cast<char>((value >> 16) & 0xFF);
  out += static_cast<char>((value >> 8) & 0xFF);
  out += static_cast<char>(value & 0xFF);
}

uint32_t GetUint32(std::string_view bytes, size_t at) {
  uint32_t value = 0;
  for (size_t i = 0; i < 4; ++i) {
    value = (value << 8) | static_cast<unsigned char>(bytes[at + i]);
  }
  return value;
}

std::string EncodeMuxChunk(uint32_t conn_id, std::string_view payload) {
  std::string out;
  out.reserve(kMuxHeaderBytes + payload.size());
  PutUint32(conn_id, out);
  PutUint32(static_cast<uint32_t>(payload.size()), out);
  out.append(payload);
  return out;
}

std::string EncodeMuxMessage(uint32_t conn_id, std::string_view message) {
  std::string out;
  size_t first = std::min(message.size(), kTtrpcWriteBuffer);
  if (first > 0) out += EncodeMuxChunk(conn_id, message.substr(0, first));
  for (size_t at = first; at < message.size(); at += kMaxMuxWrite) {
    out += EncodeMuxChunk(conn_id, message.substr(at, kMaxMuxWrite));
  }
  return out;
}

StatusOr<std::optional<MuxChunk>> MuxReader::Next() {
  std::string_view rest = std::string_view(buffer_).substr(start_);
  if (rest.size() < kMuxHeaderBytes) return std::optional<MuxChunk>();
  const uint32_t length = GetUint32(rest, 4);
  if (length > kMaxMuxRead) {
    return ResourceExhaustedError("mux frame of " + std::to_string(length) +
                                  " bytes is over the limit");
  }
  if (rest.size() < kMuxHeaderBytes + length) return std::optional<MuxChunk>();
  MuxChunk chunk;
  chunk.conn_id = GetUint32(rest, 0);
  chunk.payload.assign(rest.substr(kMuxHeaderBytes, length));
  start_ += kMuxHeaderBytes + length;
  if (start_ == buffer_.size()) {
    buffer_.clear();
    start_ = 0;
  } else if (start_ > (1u << 20)) {
    buffer_.erase(0, start_);
    start_ = 0;
  }
  return std::optional<MuxChunk>(std::move(chunk));
}

}  // namespace gcushare::nri_runtime
