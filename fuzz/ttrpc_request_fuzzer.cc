// Fuzzes ttrpc framing and request decoding as the plugin's ttrpc server
// and client see them: frames reassembled from a byte stream; request
// frames parsed as ttrpc.Request and their payload as the NRI message the
// method names; response frames as ttrpc.Response with its rpc status.
// Also checks that every decoded header re-encodes to the same bytes.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "nri-plugin/api/api.pb.h"
#include "nri-plugin/api/ttrpc.pb.h"
#include "nri-plugin/ttrpc/frame.h"
#include "nri-plugin/ttrpc/status_codec.h"

namespace {

namespace api = ::nri::pkg::api::v1alpha1;
namespace wire = gcushare::nri::ttrpc;

// Parses `payload` as the request message of `method` (Plugin and Runtime
// services), as RegisterProto's handlers do.
void ParsePayload(const std::string& method, const std::string& payload) {
  if (method == "Configure") {
    api::ConfigureRequest m;
    (void)m.ParseFromString(payload);
  } else if (method == "Synchronize") {
    api::SynchronizeRequest m;
    (void)m.ParseFromString(payload);
  } else if (method == "CreateContainer") {
    api::CreateContainerRequest m;
    (void)m.ParseFromString(payload);
  } else if (method == "StateChange") {
    api::StateChangeEvent m;
    (void)m.ParseFromString(payload);
  } else if (method == "RegisterPlugin") {
    api::RegisterPluginRequest m;
    (void)m.ParseFromString(payload);
  } else if (method == "UpdateContainers") {
    api::UpdateContainersRequest m;
    (void)m.ParseFromString(payload);
  } else {
    api::Empty m;
    (void)m.ParseFromString(payload);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  wire::FrameDecoder decoder(/*max_length=*/1 << 16);
  decoder.Append(bytes);
  while (true) {
    gcushare::StatusOr<std::optional<wire::Frame>> next = decoder.Next();
    if (!next.ok() || !next->has_value()) break;
    const wire::Frame& frame = **next;
    const std::string header = wire::EncodeFrameHeader(frame.header);
    if (header.size() != wire::kFrameHeaderSize ||
        !(wire::DecodeFrameHeader(header.data()) == frame.header)) {
      __builtin_trap();
    }
    if (frame.header.type == static_cast<uint8_t>(wire::FrameType::kRequest)) {
      ::ttrpc::Request request;
      if (!request.ParseFromString(frame.data)) continue;
      ParsePayload(request.method(), request.payload());
    } else if (frame.header.type ==
               static_cast<uint8_t>(wire::FrameType::kResponse)) {
      ::ttrpc::Response response;
      if (!response.ParseFromString(frame.data)) continue;
      if (response.has_status()) {
        (void)wire::FromRpcStatus(response.status());
      }
    }
  }
  return 0;
}
