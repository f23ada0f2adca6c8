#include "nri-plugin/ttrpc/frame.h"

#include "nri-plugin/net/big_endian.h"

namespace gcushare::nri::ttrpc {

std::string EncodeFrameHeader(const FrameHeader& header) {
  std::string out(kFrameHeaderSize, '\0');
  PutBigEndian32(out.data(), header.length);
  PutBigEndian32(out.data() + 4, header.stream_id);
  out[8] = static_cast<char>(header.type);
  out[9] = static_cast<char>(header.flags);
  return out;
}

FrameHeader DecodeFrameHeader(const char* bytes) {
  FrameHeader h;
  h.length = GetBigEndian32(bytes);
  h.stream_id = GetBigEndian32(bytes + 4);
  h.type = static_cast<uint8_t>(bytes[8]);
  h.flags = static_cast<uint8_t>(bytes[9]);
  return h;
}

StatusOr<std::string> EncodeFrame(uint32_t stream_id, FrameType type,
                                  uint8_t flags, std::string_view data) {
  if (data.size() > kMaxMessageLength) {
    return ResourceExhaustedError(
        "ttrpc message of " + std::to_string(data.size()) +
        " bytes is over the limit of " + std::to_string(kMaxMessageLength));
  }
  FrameHeader h{static_cast<uint32_t>(data.size()), stream_id,
                static_cast<uint8_t>(type), flags};
  std::string out = EncodeFrameHeader(h);
  out.append(data);
  return out;
}

StatusOr<std::optional<Frame>> FrameDecoder::Next() {
  if (buffered() < kFrameHeaderSize) return std::optional<Frame>();
  FrameHeader h = DecodeFrameHeader(buffer_.data() + offset_);
  if (h.length > max_length_) {
    return ResourceExhaustedError(
        "ttrpc frame on stream " + std::to_string(h.stream_id) + " announces " +
        std::to_string(h.length) + " bytes, over the limit of " +
        std::to_string(max_length_));
  }
  if (buffered() < kFrameHeaderSize + h.length) return std::optional<Frame>();
  Frame frame;
  frame.header = h;
  frame.data = buffer_.substr(offset_ + kFrameHeaderSize, h.length);
  offset_ += kFrameHeaderSize + h.length;
  // Compact once the consumed prefix dominates, keeping appends amortised.
  if (offset_ == buffer_.size()) {
    buffer_.clear();
    offset_ = 0;
  } else if (offset_ > 4096 && offset_ * 2 > buffer_.size()) {
    buffer_.erase(0, offset_);
    offset_ = 0;
  }
  return std::optional<Frame>(std::move(frame));
}

}  // namespace gcushare::nri::ttrpc
