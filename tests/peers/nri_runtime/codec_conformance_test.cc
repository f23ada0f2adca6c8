// The stand-in runtime's own codecs (mux_codec.h, ttrpc_codec.h) against
// the bytes of a real containerd 1.7.13 <-> NRI v0.4.0 plugin session
// (tests/conformance/CAPTURES.md), and against the plugin's codecs
// (nri-plugin/mux, nri-plugin/ttrpc and the ttrpc.proto envelopes) on the
// same bytes: both must read every message alike, and the stand-in must
// write containerd's byte stream exactly. The two codecs share no code, so
// a bug in either shows here instead of cancelling out over the socket.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "nri-plugin/api/ttrpc.pb.h"
#include "nri-plugin/mux/frame.h"
#include "nri-plugin/ttrpc/frame.h"
#include "testing/files.h"
#include "testing/subprocess.h"
#include "tests/peers/nri_runtime/mux_codec.h"
#include "tests/peers/nri_runtime/ttrpc_codec.h"

namespace gcushare::nri_runtime {
namespace {

const char kCapture[] = "tests/conformance/nri-containerd-1.7.13";
const char kRuntimeToPlugin[] = ".runtime-to-plugin.bin";
const char kPluginToRuntime[] = ".plugin-to-runtime.bin";

std::string Capture(const std::string& suffix) {
  std::string bytes = gcushare::testing::ReadFileOrEmpty(
      gcushare::testing::RunfilePath(std::string(kCapture) + suffix));
  EXPECT_FALSE(bytes.empty()) << suffix;
  return bytes;
}

// One ttrpc message as a line of text, for comparison and diagnostics.
struct Message {
  uint32_t conn = 0;
  uint32_t stream = 0;
  int type = 0;
  int flags = 0;
  std::string service, method, payload, status_message;
  int64_t timeout_nano = 0;
  int code = 0;
  std::vector<std::pair<std::string, std::string>> metadata;

  std::string Line() const {
    std::ostringstream out;
    out << "conn=" << conn << " stream=" << stream << " type=" << type
        << " flags=" << flags << " service=" << service << " method=" << method
        << " timeout=" << timeout_nano << " code=" << code
        << " message=" << status_message << " metadata=[";
    for (const auto& [k, v] : metadata) out << k << "=" << v << ";";
    out << "] payload=" << payload.size() << ":"
        << std::hash<std::string>()(payload);
    return out.str();
  }
};

// Messages in completion order plus the mux frames (conn, length) seen.
struct Decoded {
  std::vector<std::pair<uint32_t, size_t>> mux;
  std::vector<Message> messages;
  std::vector<std::string> Lines() const {
    std::vector<std::string> lines;
    for (const Message& m : messages) lines.push_back(m.Line());
    return lines;
  }
};

Decoded DecodeWithStandIn(const std::string& bytes) {
  Decoded out;
  MuxReader mux;
  std::map<uint32_t, TtrpcReader> streams;
  mux.Append(bytes);
  while (true) {
    auto chunk = mux.Next();
    EXPECT_TRUE(chunk.ok()) << chunk.status();
    if (!chunk.ok() || !chunk->has_value()) break;
    out.mux.emplace_back((*chunk)->conn_id, (*chunk)->payload.size());
    TtrpcReader& reader = streams[(*chunk)->conn_id];
    reader.Append((*chunk)->payload);
    while (true) {
      auto frame = reader.Next();
      EXPECT_TRUE(frame.ok()) << frame.status();
      if (!frame.ok() || !frame->has_value()) break;
      Message m;
      m.conn = (*chunk)->conn_id;
      m.stream = (*frame)->stream_id;
      m.type = (*frame)->type;
      m.flags = (*frame)->flags;
      if (m.type == kTtrpcRequest) {
        auto request = DecodeTtrpcRequest((*frame)->body);
        EXPECT_TRUE(request.ok()) << request.status();
        if (!request.ok()) continue;
        m.service = request->service;
        m.method = request->method;
        m.payload = request->payload;
        m.timeout_nano = request->timeout_nano;
        m.metadata = request->metadata;
      } else {
        auto response = DecodeTtrpcResponse((*frame)->body);
        EXPECT_TRUE(response.ok()) << response.status();
        if (!response.ok()) continue;
        m.code = response->code;
        m.status_message = response->message;
        m.payload = response->payload;
      }
      out.messages.push_back(std::move(m));
    }
  }
  EXPECT_EQ(mux.pending_bytes(), 0u);
  return out;
}

Decoded DecodeWithPlugin(const std::string& bytes) {
  Decoded out;
  nri::mux::MuxDecoder mux;
  std::map<uint32_t, nri::ttrpc::FrameDecoder> streams;
  mux.Append(bytes);
  while (true) {
    auto chunk = mux.Next();
    EXPECT_TRUE(chunk.ok()) << chunk.status();
    if (!chunk.ok() || !chunk->has_value()) break;
    out.mux.emplace_back((*chunk)->conn_id, (*chunk)->payload.size());
    nri::ttrpc::FrameDecoder& decoder = streams[(*chunk)->conn_id];
    decoder.Append((*chunk)->payload);
    while (true) {
      auto frame = decoder.Next();
      EXPECT_TRUE(frame.ok()) << frame.status();
      if (!frame.ok() || !frame->has_value()) break;
      Message m;
      m.conn = (*chunk)->conn_id;
      m.stream = (*frame)->header.stream_id;
      m.type = (*frame)->header.type;
      m.flags = (*frame)->header.flags;
      if (m.type == 1) {
        ::ttrpc::Request request;
        EXPECT_TRUE(request.ParseFromString((*frame)->data));
        m.service = request.service();
        m.method = request.method();
        m.payload = request.payload();
        m.timeout_nano = request.timeout_nano();
        for (const auto& kv : request.metadata()) {
          m.metadata.emplace_back(kv.key(), kv.value());
        }
      } else {
        ::ttrpc::Response response;
        EXPECT_TRUE(response.ParseFromString((*frame)->data));
        m.code = response.status().code();
        m.status_message = response.status().message();
        m.payload = response.payload();
      }
      out.messages.push_back(std::move(m));
    }
  }
  EXPECT_EQ(mux.buffered(), 0u);
  return out;
}

class BothDirections : public ::testing::TestWithParam<const char*> {};

TEST_P(BothDirections, StandInAndPluginCodecsReadTheCaptureAlike) {
  const std::string bytes = Capture(GetParam());
  const Decoded stand_in = DecodeWithStandIn(bytes);
  const Decoded plugin = DecodeWithPlugin(bytes);
  EXPECT_EQ(stand_in.mux, plugin.mux);
  EXPECT_EQ(stand_in.Lines(), plugin.Lines());
  EXPECT_EQ(stand_in.messages.size(), 6u);  // CAPTURES.md: 12 messages.
}

INSTANTIATE_TEST_SUITE_P(Capture, BothDirections,
                         ::testing::Values(kRuntimeToPlugin, kPluginToRuntime));

TEST(CodecConformanceTest, StandInReadsWhatTheDecodedTranscriptShows) {
  const Decoded runtime = DecodeWithStandIn(Capture(kRuntimeToPlugin));
  ASSERT_EQ(runtime.messages.size(), 6u);
  // MSG 1: the RegisterPlugin answer, an empty Response on conn 2.
  EXPECT_EQ(runtime.messages[0].conn, kRuntimeConnId);
  EXPECT_EQ(runtime.messages[0].type, kTtrpcResponse);
  EXPECT_TRUE(runtime.messages[0].payload.empty());
  const std::vector<std::string> methods = {"Configure", "Synchronize",
                                            "StateChange", "CreateContainer",
                                            "StateChange"};
  for (size_t i = 1; i < runtime.messages.size(); ++i) {
    const Message& m = runtime.messages[i];
    SCOPED_TRACE(m.Line());
    EXPECT_EQ(m.conn, kPluginConnId);
    EXPECT_EQ(m.stream, 2 * i - 1);
    EXPECT_EQ(m.service, "nri.pkg.api.v1alpha1.Plugin");
    EXPECT_EQ(m.method, methods[i - 1]);
    // Events carry containerd's namespace; Configure and Synchronize not.
    if (i >= 3) {
      ASSERT_EQ(m.metadata.size(), 1u);
      EXPECT_EQ(m.metadata[0].first, "containerd-namespace-ttrpc");
      EXPECT_EQ(m.metadata[0].second, "k8s.io");
    } else {
      EXPECT_TRUE(m.metadata.empty());
    }
  }
  EXPECT_EQ(runtime.messages[1].timeout_nano, 1999828225);
  EXPECT_EQ(runtime.messages[2].payload.size(), 10048u);
  // Synchronize left as 4096 bytes and then the rest, as Go's bufio does.
  EXPECT_EQ(runtime.mux[2], std::make_pair(kPluginConnId, size_t{4096}));
  EXPECT_EQ(runtime.mux[3], std::make_pair(kPluginConnId, size_t{6013}));

  const Decoded plugin = DecodeWithStandIn(Capture(kPluginToRuntime));
  ASSERT_EQ(plugin.messages.size(), 6u);
  EXPECT_EQ(plugin.messages[0].method, "RegisterPlugin");
  EXPECT_EQ(plugin.messages[0].conn, kRuntimeConnId);
  EXPECT_EQ(plugin.messages[0].timeout_nano, 1997090147);
  EXPECT_EQ(plugin.messages[4].payload.size(), 70u);  // CreateContainer.
}

// Re-encoding every decoded message with the stand-in's encoders gives
// containerd's byte stream exactly: field order, omitted empty fields, the
// empty Response and the mux splitting all match.
TEST(CodecConformanceTest, StandInWritesContainerdsBytes) {
  const std::string captured = Capture(kRuntimeToPlugin);
  std::string encoded;
  for (const Message& m : DecodeWithStandIn(captured).messages) {
    TtrpcFrame frame;
    frame.stream_id = m.stream;
    frame.type = static_cast<uint8_t>(m.type);
    frame.flags = static_cast<uint8_t>(m.flags);
    if (m.type == kTtrpcRequest) {
      frame.body = EncodeTtrpcRequest(
          {m.service, m.method, m.payload, m.timeout_nano, m.metadata});
    } else {
      frame.body = EncodeTtrpcResponse({m.code, m.status_message, m.payload});
    }
    encoded += EncodeMuxMessage(m.conn, EncodeTtrpcFrame(frame));
  }
  EXPECT_EQ(encoded.size(), captured.size());
  EXPECT_TRUE(encoded == captured);
}

TEST(CodecConformanceTest, ErrorResponsesRoundTripThroughThePluginsEnvelope) {
  const std::string body =
      EncodeTtrpcResponse({12, "method Frobnicate", "unused"});
  ::ttrpc::Response parsed;
  ASSERT_TRUE(parsed.ParseFromString(body));
  EXPECT_EQ(parsed.status().code(), 12);
  EXPECT_EQ(parsed.status().message(), "method Frobnicate");
  EXPECT_EQ(parsed.payload(), "unused");
  auto back = DecodeTtrpcResponse(parsed.SerializeAsString());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->code, 12);
  EXPECT_EQ(back->message, "method Frobnicate");
}

TEST(CodecConformanceTest, BadInputIsAnErrorNotACrash) {
  EXPECT_FALSE(
      DecodeTtrpcRequest(std::string("\x0a\x05") + "ab").ok());  // Truncated.
  EXPECT_FALSE(DecodeTtrpcRequest("\x08").ok());          // Truncated varint.
  EXPECT_FALSE(DecodeTtrpcRequest("\x20\x01\x0b").ok());  // Wire type 3.
  EXPECT_FALSE(DecodeTtrpcRequest("\x08\x01").ok());      // service as varint.
  EXPECT_FALSE(DecodeTtrpcResponse("\x0a\x02\x08").ok());
  MuxReader mux;
  mux.Append(std::string("\0\0\0\1\xff\xff\xff\xff", 8));
  EXPECT_EQ(mux.Next().status().code(), StatusCode::kResourceExhausted);
  TtrpcReader ttrpc;
  ttrpc.Append(std::string("\0\x40\0\1\0\0\0\1\1\0", 10));
  EXPECT_EQ(ttrpc.Next().status().code(), StatusCode::kResourceExhausted);
}

}  // namespace
}  // namespace gcushare::nri_runtime
