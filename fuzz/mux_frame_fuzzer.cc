// Fuzzes the NRI multiplexer's frame decoder on a byte stream as the
// runtime writes it, and checks that every decoded frame re-encodes to a
// stream that decodes to the same frame.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "nri-plugin/mux/frame.h"

namespace mux = gcushare::nri::mux;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  mux::MuxDecoder decoder(/*max_payload=*/1 << 16);
  // Two appends: a frame may straddle reads.
  decoder.Append(bytes.substr(0, size / 2));
  bool appended_rest = false;
  while (true) {
    gcushare::StatusOr<std::optional<mux::MuxFrame>> next = decoder.Next();
    if (!next.ok()) return 0;
    if (!next->has_value()) {
      if (appended_rest) break;
      decoder.Append(bytes.substr(size / 2));
      appended_rest = true;
      continue;
    }
    const mux::MuxFrame& frame = **next;
    mux::MuxDecoder again(/*max_payload=*/1 << 16);
    again.Append(
        mux::EncodeMuxFrames(frame.conn_id, frame.payload,
                             std::max<size_t>(1, frame.payload.size())));
    gcushare::StatusOr<std::optional<mux::MuxFrame>> copy = again.Next();
    if (!frame.payload.empty() && (!copy.ok() || !copy->has_value() ||
                                   (*copy)->conn_id != frame.conn_id ||
                                   (*copy)->payload != frame.payload)) {
      __builtin_trap();
    }
  }
  return 0;
}
