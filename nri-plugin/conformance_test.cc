// Our mux, ttrpc and NRI codecs against the bytes of a real containerd
// 1.7.13 <-> NRI v0.4.0 plugin session (tests/conformance/CAPTURES.md):
// the frames parse to the fields the decoded transcript shows, our encoder
// reproduces the plugin's byte stream exactly, and our plugin, replayed the
// runtime's bytes over a socket, answers frame for frame.
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "nri-plugin/api/api.pb.h"
#include "nri-plugin/api/ttrpc.pb.h"
#include "nri-plugin/fake_device_nodes.h"
#include "nri-plugin/mux/frame.h"
#include "nri-plugin/net/unix_socket.h"
#include "nri-plugin/plugin.h"
#include "nri-plugin/protocol.h"
#include "nri-plugin/ttrpc/client.h"
#include "nri-plugin/ttrpc/frame.h"
#include "testing/files.h"
#include "testing/subprocess.h"

namespace gcushare::nri {
namespace {

using std::chrono::seconds;

const char kDir[] = "tests/conformance/nri-containerd-1.7.13";

std::string Capture(const std::string& suffix) {
  std::string bytes = gcushare::testing::ReadFileOrEmpty(
      gcushare::testing::RunfilePath(std::string(kDir) + suffix));
  EXPECT_FALSE(bytes.empty()) << suffix;
  return bytes;
}

// Read sizes of one direction, from the transcript.
std::vector<size_t> ChunkSizes(const std::string& direction) {
  std::istringstream in(Capture(".transcript"));
  std::string line;
  bool begun = false;
  std::vector<size_t> sizes;
  while (std::getline(in, line)) {
    if (!begun) {
      begun = line == "BEGIN";
      continue;
    }
    if (line.empty() || line[0] == '#') continue;  // EOF notes, totals.
    std::istringstream fields(line);
    std::string seq, t, dir;
    size_t offset = 0, length = 0;
    fields >> seq >> t >> dir >> offset >> length;
    if (dir == direction) sizes.push_back(length);
  }
  return sizes;
}

struct Demuxed {
  std::vector<std::pair<uint32_t, size_t>> mux;  // (conn, payload length)
  std::map<uint32_t, std::string> streams;       // conn -> concatenation
};

Demuxed Demux(const std::string& bytes, const std::vector<size_t>& chunks) {
  mux::MuxDecoder d;
  Demuxed out;
  size_t at = 0;
  for (size_t n : chunks) {
    d.Append(std::string_view(bytes).substr(at, n));
    at += n;
    while (true) {
      auto next = d.Next();
      EXPECT_TRUE(next.ok());
      if (!next.ok() || !next->has_value()) break;
      out.mux.emplace_back((*next)->conn_id, (*next)->payload.size());
      out.streams[(*next)->conn_id] += (*next)->payload;
    }
  }
  EXPECT_EQ(at, bytes.size());
  EXPECT_EQ(d.buffered(), 0u);
  return out;
}

std::vector<ttrpc::Frame> Frames(const std::string& stream) {
  ttrpc::FrameDecoder d;
  d.Append(stream);
  std::vector<ttrpc::Frame> out;
  while (true) {
    auto next = d.Next();
    EXPECT_TRUE(next.ok());
    if (!next.ok() || !next->has_value()) break;
    out.push_back(std::move(**next));
  }
  EXPECT_EQ(d.buffered(), 0u);
  return out;
}

// True when `m` and its sub-messages hold no field our .proto lacks.
bool NoUnknownFields(const google::protobuf::Message& m) {
  const auto* r = m.GetReflection();
  if (!r->GetUnknownFields(m).empty()) return false;
  std::vector<const google::protobuf::FieldDescriptor*> fields;
  r->ListFields(m, &fields);
  for (const auto* f : fields) {
    if (f->cpp_type() != google::protobuf::FieldDescriptor::CPPTYPE_MESSAGE) {
      continue;
    }
    if (f->is_repeated()) {
      for (int i = 0; i < r->FieldSize(m, f); ++i) {
        if (!NoUnknownFields(r->GetRepeatedMessage(m, f, i))) return false;
      }
    } else if (!NoUnknownFields(r->GetMessage(m, f))) {
      return false;
    }
  }
  return true;
}

const std::vector<std::pair<uint32_t, size_t>> kRuntimeMux = {
    {2, 10},   {1, 79},  {1, 4096}, {1, 6013}, {1, 1444},
    {1, 4096}, {1, 257}, {1, 4096}, {1, 341}};
const std::vector<std::pair<uint32_t, size_t>> kPluginMux = {
    {2, 86}, {1, 14}, {1, 10}, {1, 10}, {1, 82}, {1, 10}};

TEST(ConformanceTest, MuxFramesWhateverTheReadSizes) {
  const std::string bytes = Capture(".runtime-to-plugin.bin");
  ASSERT_EQ(bytes.size(), 20504u);
  std::vector<size_t> transcript = ChunkSizes("runtime->plugin");
  std::vector<size_t> ones(bytes.size(), 1);
  for (const auto& chunks :
       {std::vector<size_t>{bytes.size()}, ones, transcript}) {
    EXPECT_EQ(Demux(bytes, chunks).mux, kRuntimeMux);
  }
  const std::string plugin = Capture(".plugin-to-runtime.bin");
  EXPECT_EQ(Demux(plugin, ChunkSizes("plugin->runtime")).mux, kPluginMux);
}

TEST(ConformanceTest, TtrpcHeadersAndPayloadsDecode) {
  Demuxed d = Demux(Capture(".runtime-to-plugin.bin"), {20504});
  std::vector<ttrpc::Frame> conn2 = Frames(d.streams[2]);
  std::vector<ttrpc::Frame> conn1 = Frames(d.streams[1]);
  ASSERT_EQ(conn2.size(), 1u);
  EXPECT_EQ(conn2[0].header, (ttrpc::FrameHeader{0, 1, 2, 0}));
  ASSERT_EQ(conn1.size(), 5u);
  const std::vector<ttrpc::FrameHeader> want = {{69, 1, 1, 0},
                                                {10099, 3, 1, 0},
                                                {1434, 5, 1, 0},
                                                {4343, 7, 1, 0},
                                                {4427, 9, 1, 0}};
  std::vector<::ttrpc::Request> requests;
  for (size_t i = 0; i < conn1.size(); ++i) {
    EXPECT_EQ(conn1[i].header, want[i]) << i;
    ::ttrpc::Request r;
    ASSERT_TRUE(r.ParseFromString(conn1[i].data));
    EXPECT_EQ(r.service(), kPluginService);
    requests.push_back(r);
  }
  // MSG 2: Configure, no metadata; our encoding of it is byte-identical.
  EXPECT_EQ(requests[0].method(), "Configure");
  EXPECT_EQ(requests[0].timeout_nano(), 1999828225);
  EXPECT_EQ(requests[0].metadata_size(), 0);
  EXPECT_EQ(requests[0].SerializeAsString(), conn1[0].data);
  api::ConfigureRequest configure;
  ASSERT_TRUE(configure.ParseFromString(requests[0].payload()));
  EXPECT_EQ(configure.runtime_name(), "containerd");
  EXPECT_EQ(configure.runtime_version(), "v1.7.13");
  EXPECT_EQ(configure.config(), "");

  // MSG 4: Synchronize with 5 pods and 2 containers.
  EXPECT_EQ(requests[1].method(), "Synchronize");
  api::SynchronizeRequest sync;
  ASSERT_TRUE(sync.ParseFromString(requests[1].payload()));
  EXPECT_EQ(sync.pods_size(), 5);
  EXPECT_EQ(sync.containers_size(), 2);
  EXPECT_TRUE(NoUnknownFields(sync));

  // MSG 6: StateChange RUN_POD_SANDBOX with the k8s.io metadata.
  EXPECT_EQ(requests[2].method(), "StateChange");
  ASSERT_EQ(requests[2].metadata_size(), 1);
  EXPECT_EQ(requests[2].metadata(0).key(), "containerd-namespace-ttrpc");
  EXPECT_EQ(requests[2].metadata(0).value(), "k8s.io");
  api::StateChangeEvent run;
  ASSERT_TRUE(run.ParseFromString(requests[2].payload()));
  EXPECT_EQ(run.event(), api::RUN_POD_SANDBOX);
  EXPECT_EQ(run.pod().name(), "nri-gcu-pod");

  // MSG 8: CreateContainer for the annotated pod.
  EXPECT_EQ(requests[3].method(), "CreateContainer");
  EXPECT_EQ(requests[3].timeout_nano(), 1999794591);
  api::CreateContainerRequest create;
  ASSERT_TRUE(create.ParseFromString(requests[3].payload()));
  EXPECT_TRUE(NoUnknownFields(create));
  EXPECT_EQ(create.pod().annotations().at("enflame.com/gcu-device-id"), "1");
  EXPECT_EQ(
      create.pod().annotations().at("enflame.com/gcu-device-memory-request"),
      "4");
  EXPECT_EQ(create.pod().namespace_(), "default");
  EXPECT_EQ(create.pod().uid(), "9b4f6592-0d50-460c-9d14-6e07e5fc6a3f");
  EXPECT_EQ(create.pod().linux().cgroup_parent(),
            "/kubepods/besteffort/pod9b4f6592-0d50-460c-9d14-6e07e5fc6a3f");
  EXPECT_EQ(create.pod().pid(), 18780u);
  EXPECT_EQ(create.container().name(), "main");
  EXPECT_EQ(create.container().args(0), "/bin/sh");
  EXPECT_EQ(create.container().env(0), "PATH=/bin");
  EXPECT_EQ(create.container().mounts(0).destination(), "/proc");
  EXPECT_EQ(create.container().linux().oom_score_adj().value(), 1000);
  EXPECT_EQ(create.container().linux().resources().cpu().shares().value(), 2u);
  // Maps come in any order: a re-encoding compares equal as messages.
  api::CreateContainerRequest again;
  ASSERT_TRUE(again.ParseFromString(create.SerializeAsString()));
  EXPECT_TRUE(
      google::protobuf::util::MessageDifferencer::Equals(create, again));

  // MSG 10: StateChange START_CONTAINER, container created.
  api::StateChangeEvent start;
  ASSERT_TRUE(start.ParseFromString(requests[4].payload()));
  EXPECT_EQ(start.event(), api::START_CONTAINER);
  EXPECT_EQ(start.container().state(), api::CONTAINER_CREATED);
  EXPECT_TRUE(NoUnknownFields(start));
}

// Captures what a ttrpc client writes.
class CaptureSink : public ByteSink {
 public:
  Status Write(std::string_view bytes) override {
    std::lock_guard<std::mutex> lock(mu_);
    data_.append(bytes);
    cv_.notify_all();
    return OkStatus();
  }
  std::string WaitForData() {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait_for(lock, seconds(10), [&] { return !data_.empty(); });
    return data_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::string data_;
};

std::string Response(uint32_t stream, const std::string& payload) {
  ::ttrpc::Response r;
  r.set_payload(payload);
  return mux::EncodeMuxFrames(
      mux::kPluginServiceConn,
      *ttrpc::EncodeFrame(stream, ttrpc::FrameType::kResponse, 0,
                          r.SerializeAsString()));
}

TEST(ConformanceTest, OurEncoderReproducesThePluginStream) {
  // MSG 0 through our real ttrpc client, answered with MSG 1's bytes.
  CaptureSink sink;
  ttrpc::Client client(&sink);
  api::RegisterPluginRequest reg;
  reg.set_plugin_name("example01-logger");
  reg.set_plugin_idx("50");
  StatusOr<api::Empty> result = UnavailableError("not run");
  std::thread call([&] {
    result =
        client.CallProto<api::Empty>(kRuntimeService, "RegisterPlugin", reg,
                                     std::chrono::nanoseconds(1997090147));
  });
  std::string msg0 = sink.WaitForData();
  ASSERT_TRUE(client.OnBytes(std::string("\0\0\0\0\0\0\0\x01\x02\0", 10)).ok());
  call.join();
  ASSERT_TRUE(result.ok()) << result.status();

  api::ConfigureResponse configured;
  configured.set_events(41);
  api::CreateContainerResponse created;
  api::KeyValue* env = created.mutable_adjust()->add_env();
  env->set_key("NRI_EXAMPLE01");
  env->set_value("injected-by-nri-logger");
  api::LinuxDevice* dev =
      created.mutable_adjust()->mutable_linux()->add_devices();
  dev->set_path("/dev/gcu1");
  dev->set_type("c");
  dev->set_major(1);
  dev->set_minor(3);
  dev->mutable_file_mode()->set_value(0666);
  std::string ours = mux::EncodeMuxFrames(mux::kRuntimeServiceConn, msg0) +
                     Response(1, configured.SerializeAsString()) +
                     Response(3, "") + Response(5, "") +
                     Response(7, created.SerializeAsString()) + Response(9, "");
  EXPECT_EQ(ours, Capture(".plugin-to-runtime.bin"));
}

// Reads mux frames from `fd` until one full ttrpc frame is reassembled on
// some connection.
struct Reply {
  std::vector<size_t> mux_frames;
  uint32_t conn = 0;
  ttrpc::Frame frame;
  std::string wire;  // The mux frames as received.
};

bool ReadReply(int fd, Reply* out) {
  mux::MuxDecoder d;
  std::map<uint32_t, ttrpc::FrameDecoder> streams;
  char buf[4096];
  while (true) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 10000) != 1) return false;
    ssize_t n = ::read(fd, buf, sizeof(buf));
    if (n <= 0) return false;
    out->wire.append(buf, n);
    d.Append(std::string_view(buf, n));
    while (true) {
      auto next = d.Next();
      if (!next.ok()) return false;
      if (!next->has_value()) break;
      out->mux_frames.push_back((*next)->payload.size());
      auto& s = streams[(*next)->conn_id];
      s.Append((*next)->payload);
      auto frame = s.Next();
      if (!frame.ok()) return false;
      if (frame->has_value()) {
        out->conn = (*next)->conn_id;
        out->frame = std::move(**frame);
        return d.buffered() == 0;
      }
    }
  }
}

TEST(ConformanceTest, ReplayedRuntimeGetsFrameForFrameAnswers) {
  const std::string runtime = Capture(".runtime-to-plugin.bin");
  const std::string plugin_bytes = Capture(".plugin-to-runtime.bin");
  // Offsets of the runtime's 9 mux frames (section A), then its end. The
  // last frame's (20155) was missing: frames(7, 8) read past the vector
  // (ASan's heap-buffer-overflow), and substr's clamping hid it.
  const std::vector<size_t> offsets = {0,     18,    105,   4209,  10230,
                                       11682, 15786, 16051, 20155, 20504};
  ASSERT_EQ(offsets.back(), runtime.size());
  auto frames = [&](size_t first, size_t last) {
    return runtime.substr(offsets.at(first),
                          offsets.at(last + 1) - offsets.at(first));
  };
  std::string socket = gcushare::testing::MakeTempDir() + "/nri.sock";
  auto listener = ListenUnix(socket);
  ASSERT_TRUE(listener.ok());

  FakeDeviceNodes nodes;
  nodes.Add("/dev/gcu1", {"c", 1, 3, 0666});  // /dev/null, as captured.
  ContainerAdjuster adjuster(&nodes, nullptr, {});
  base::RealClock clock;
  PluginOptions options;
  options.session.socket_path = socket;
  NriPlugin plugin(options, &adjuster, &clock);
  base::Cancellation cancel;
  std::thread runner([&] { plugin.Run(&cancel); });

  auto fd = AcceptUnix(listener->get(), seconds(30));
  ASSERT_TRUE(fd.ok());
  // MSG 0: RegisterPlugin, our name and index.
  Reply reg;
  ASSERT_TRUE(ReadReply(fd->get(), &reg));
  EXPECT_EQ(reg.conn, 2u);
  EXPECT_EQ(reg.frame.header.stream_id, 1u);
  EXPECT_EQ(reg.mux_frames.size(), 1u);
  ::ttrpc::Request request;
  ASSERT_TRUE(request.ParseFromString(reg.frame.data));
  EXPECT_EQ(request.method(), "RegisterPlugin");
  api::RegisterPluginRequest r;
  ASSERT_TRUE(r.ParseFromString(request.payload()));
  EXPECT_EQ(r.plugin_name(), "gcushare");
  EXPECT_EQ(r.plugin_idx(), "10");

  auto send = [&](const std::string& bytes) {
    ASSERT_EQ(::write(fd->get(), bytes.data(), bytes.size()),
              static_cast<ssize_t>(bytes.size()));
  };
  send(frames(0, 0));  // MSG 1
  send(frames(1, 1));  // MSG 2 Configure
  Reply configure;
  ASSERT_TRUE(ReadReply(fd->get(), &configure));
  EXPECT_EQ(configure.conn, 1u);
  EXPECT_EQ(configure.frame.header, (ttrpc::FrameHeader{4, 1, 2, 0}));
  ::ttrpc::Response response;
  ASSERT_TRUE(response.ParseFromString(configure.frame.data));
  api::ConfigureResponse events;
  ASSERT_TRUE(events.ParseFromString(response.payload()));
  EXPECT_EQ(events.events(), 8);  // CREATE_CONTAINER; the capture's had 41.

  // MSG 4/5, 6/7: empty answers, byte-identical to the capture's.
  send(frames(2, 3));
  Reply sync;
  ASSERT_TRUE(ReadReply(fd->get(), &sync));
  EXPECT_EQ(sync.wire, plugin_bytes.substr(116, 18));
  send(frames(4, 4));
  Reply state;
  ASSERT_TRUE(ReadReply(fd->get(), &state));
  EXPECT_EQ(state.wire, plugin_bytes.substr(134, 18));

  // MSG 8/9: CreateContainer -> /dev/gcu1 and our environment.
  send(frames(5, 6));
  Reply create;
  ASSERT_TRUE(ReadReply(fd->get(), &create));
  EXPECT_EQ(create.mux_frames.size(), 1u);
  EXPECT_EQ(create.frame.header.stream_id, 7u);
  EXPECT_EQ(create.frame.header.type, 2);
  ASSERT_TRUE(response.ParseFromString(create.frame.data));
  EXPECT_FALSE(response.has_status());
  api::CreateContainerResponse adjusted;
  ASSERT_TRUE(adjusted.ParseFromString(response.payload()));
  ASSERT_EQ(adjusted.adjust().linux().devices_size(), 1);
  // The device entry encodes exactly as the captured plugin's did.
  api::CreateContainerResponse captured;
  ASSERT_TRUE(response.ParseFromString(plugin_bytes.substr(152 + 8 + 10, 72)));
  ASSERT_TRUE(captured.ParseFromString(response.payload()));
  EXPECT_EQ(adjusted.adjust().linux().devices(0).SerializeAsString(),
            captured.adjust().linux().devices(0).SerializeAsString());
  std::map<std::string, std::string> env;
  for (const auto& kv : adjusted.adjust().env()) env[kv.key()] = kv.value();
  EXPECT_EQ(env["ENFLAME_VISIBLE_DEVICES"], "1");
  EXPECT_EQ(env["GCUSHARE_MEMORY_LIMIT_MB"], "4096");
  EXPECT_EQ(env["GCUSHARE_MEMORY_UNIT"], "1");
  EXPECT_EQ(env.count("GCUSHARE_MEMORY_TOTAL_MB"), 0u);  // Not annotated.

  // MSG 10/11.
  send(frames(7, 8));
  Reply start;
  ASSERT_TRUE(ReadReply(fd->get(), &start));
  EXPECT_EQ(start.wire, plugin_bytes.substr(242, 18));

  cancel.Cancel();
  runner.join();
}

}  // namespace
}  // namespace gcushare::nri
