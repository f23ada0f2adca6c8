// The two halves of a logical byte stream (one mux connection id), as the
// ttrpc layer sees them: it writes its frames to a ByteSink and is fed the
// peer's bytes through ByteReceiver, in arrival order, in arbitrary chunks.
//
// Thread-safety: ByteSink::Write may be called from several threads at once
// (each call's bytes stay contiguous). ByteReceiver::OnBytes is called from
// one thread at a time (the transport's reader).
#ifndef GCUSHARE_NRI_PLUGIN_NET_BYTE_STREAM_H_
#define GCUSHARE_NRI_PLUGIN_NET_BYTE_STREAM_H_

#include <string_view>

#include "status/status.h"

namespace gcushare::nri {

class ByteSink {
 public:
  virtual ~ByteSink() = default;
  // Sends all of `bytes` or fails (kUnavailable once the transport closed).
  virtual Status Write(std::string_view bytes) = 0;
};

class ByteReceiver {
 public:
  virtual ~ByteReceiver() = default;
  // Consumes the next chunk of the peer's stream. A non-OK result means the
  // stream is corrupt: the transport then closes the whole connection.
  virtual Status OnBytes(std::string_view bytes) = 0;
};

}  // namespace gcushare::nri

#endif  // GCUSHARE_NRI_PLUGIN_NET_BYTE_STREAM_H_
