// The stand-in runtime's own ttrpc codec (containerd/ttrpc PROTOCOL.md,
// docs/protocols.md 4.1), independent of the plugin's nri-plugin/ttrpc and
// of the generated ttrpc.proto classes: the envelopes are encoded and
// decoded here by hand from the protobuf wire format, so a test cannot pass
// on a bug shared by both ends. ttrpc_conformance_test checks it reads the
// containerd capture as the plugin's codec does.
//
// Frame: 10-byte big-endian header (uint32 length, uint32 stream id,
// uint8 type, uint8 flags), then `length` bytes (at most 4 MiB).
// Request  {1 service, 2 method, 3 payload, 4 timeout_nano, 5 metadata
//           {1 key, 2 value}}
// Response {1 status google.rpc.Status{1 code, 2 message, 3 details},
//           2 payload}
// Encoding follows proto3 as Go writes it: fields in number order, empty
// strings/bytes and zero numbers left out (an OK empty Response is 0 bytes,
// as in the capture).
//
// Pure functions and an incremental reader; thread-compatible values.
// Decoders never throw; malformed input is InvalidArgument.
#ifndef GCUSHARE_TESTS_PEERS_NRI_RUNTIME_TTRPC_CODEC_H_
#define GCUSHARE_TESTS_PEERS_NRI_RUNTIME_TTRPC_CODEC_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "status/status.h"

namespace gcushare::nri_runtime {

inline constexpr size_t kTtrpcHeaderBytes = 10;
inline constexpr uint32_t kMaxTtrpcLength = 4u << 20;
inline constexpr uint8_t kTtrpcRequest = 1;
inline constexpr uint8_t kTtrpcResponse = 2;

struct TtrpcFrame {
  uint32_t stream_id = 0;
  uint8_t type = 0;
  uint8_t flags = 0;
  std::string body;
};

// Header + body (the caller keeps the body within kMaxTtrpcLength).
std::string EncodeTtrpcFrame(const TtrpcFrame& frame);

// Reassembles frames from one connection id's byte stream.
class TtrpcReader {
 public:
  void Append(std::string_view bytes) { buffer_.append(bytes); }
  // The next whole frame, nullopt until more bytes arrive;
  // ResourceExhausted when a header announces more than kMaxTtrpcLength.
  StatusOr<std::optional<TtrpcFrame>> Next();

 private:
  std::string buffer_;
  size_t start_ = 0;
};

using TtrpcMetadata = std::vector<std::pair<std::string, std::string>>;

struct TtrpcRequest {
  std::string service;
  std::string method;
  std::string payload;
  int64_t timeout_nano = 0;
  TtrpcMetadata metadata;
};

struct TtrpcResponse {
  int32_t code = 0;  // gRPC code numbers, which are StatusCode's.
  std::string message;
  std::string payload;
};

std::string EncodeTtrpcRequest(const TtrpcRequest& request);
StatusOr<TtrpcRequest> DecodeTtrpcRequest(std::string_view body);
std::string EncodeTtrpcResponse(const TtrpcResponse& response);
StatusOr<TtrpcResponse> DecodeTtrpcResponse(std::string_view body);

}  // namespace gcushare::nri_runtime

#endif  // GCUSHARE_TESTS_PEERS_NRI_RUNTIME_TTRPC_CODEC_H_
