// gcushare-nri-plugin's core (NriPlugin with a fake device table) against
// the stand-in NRI runtime over a real unix socket, mux and ttrpc: the
// issue's scenarios end to end.
#include "nri-plugin/plugin.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <spdlog/sinks/ringbuffer_sink.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <set>
#include <thread>
#include <vector>

#include "assignment/assigned_marker.h"
#include "base/clock.h"
#include "contract/annotations.h"
#include "kube/curl_kube_client.h"
#include "kube/event_queue.h"
#include "kube/testing/fake_kube_client.h"
#include "nri-plugin/fake_device_nodes.h"
#include "nri-plugin/mux/frame.h"
#include "nri-plugin/pod_cache.h"
#include "nri-plugin/protocol.h"
#include "nri-plugin/ttrpc/frame.h"
#include "testing/eventually.h"
#include "testing/files.h"
#include "tests/peers/nri_runtime/apply.h"
#include "tests/peers/nri_runtime/fixtures.h"
#include "tests/peers/nri_runtime/runtime.h"

namespace gcushare::nri {
namespace {

namespace rt = ::gcushare::nri_runtime;
using std::chrono::milliseconds;
using std::chrono::seconds;

class PluginTest : public ::testing::Test {
 protected:
  void SetUp() override {
    socket_ = gcushare::testing::MakeTempDir() + "/nri.sock";
    nodes_.AddCards(8);
  }
  void TearDown() override { StopPlugin(); }

  void StartPlugin(milliseconds registration_timeout = milliseconds(5000),
                   ContainerAdjuster* adjuster = nullptr) {
    PluginOptions options;
    options.session.socket_path = socket_;
    options.session.registration_timeout = registration_timeout;
    options.backoff = {milliseconds(10), milliseconds(200), 2.0, 0.0};
    plugin_ = std::make_unique<NriPlugin>(
        options, adjuster != nullptr ? adjuster : &adjuster_, &clock_);
    runner_ = std::thread([this] { plugin_->Run(&cancel_); });
  }
  void StopPlugin() {
    cancel_.Cancel();
    if (runner_.joinable()) runner_.join();
  }
  std::unique_ptr<rt::NriRuntime> Runtime(
      rt::NriVersion version = rt::NriVersion::kV0_4) {
    rt::RuntimeOptions options;
    options.socket_path = socket_;
    options.version = version;
    auto runtime = rt::NriRuntime::Listen(options);
    EXPECT_TRUE(runtime.ok()) << runtime.status();
    return std::move(*runtime);
  }

  std::string socket_;
  FakeDeviceNodes nodes_;
  ContainerAdjuster adjuster_{&nodes_, nullptr, {}};
  base::RealClock clock_;
  base::Cancellation cancel_;
  std::unique_ptr<NriPlugin> plugin_;
  std::thread runner_;
};

// A pod assigned `card` by the extender, with one container "main".
api::PodSandbox AssignedPod(int i, uint32_t card) {
  contract::CardAssignment a;
  a.cards = {card};
  a.card_memory_units = 16;
  a.request_units = 4;
  a.container_cards["main"] = {card};
  return rt::MakePodSandbox("default", "gcu-pod-" + std::to_string(i), i,
                            contract::EncodeAssignment(a));
}

std::set<std::string> GcuDevices(const api::Container& c) {
  std::set<std::string> out;
  for (const auto& d : c.linux().devices()) {
    if (d.path().rfind("/dev/gcu", 0) == 0) out.insert(d.path());
  }
  return out;
}

std::string EnvValue(const api::Container& c, const std::string& key) {
  for (const std::string& e : c.env()) {
    if (e.rfind(key + "=", 0) == 0) return e.substr(key.size() + 1);
  }
  return "<unset>";
}

TEST_F(PluginTest, RegistersConfiguresAndSynchronizes) {
  for (auto version :
       {rt::NriVersion::kV0_4, rt::NriVersion::kV0_8, rt::NriVersion::kV0_12}) {
    auto runtime = Runtime(version);
    if (!plugin_) StartPlugin();
    rt::SyncState state;
    state.pods.push_back(AssignedPod(1, 1));
    state.containers.push_back(rt::MakeContainer(state.pods[0], "main"));
    auto conn = runtime->AcceptPlugin(seconds(30), state);
    ASSERT_TRUE(conn.ok()) << conn.status();
    EXPECT_EQ((*conn)->plugin_name(), "gcushare");
    EXPECT_EQ((*conn)->plugin_index(), "10");
    EXPECT_EQ((*conn)->events(), 0x8);  // CREATE_CONTAINER only.
    api::PodSandbox pod = AssignedPod(2, 3);
    auto r = (*conn)->CreateContainer(pod, rt::MakeContainer(pod, "main"));
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->adjust().linux().devices(0).path(), "/dev/gcu3");
    // Lifecycle events we did not subscribe to are not sent.
    std::string via;
    ASSERT_TRUE(
        (*conn)->SendEvent(api::START_CONTAINER, pod, nullptr, &via).ok());
    EXPECT_EQ(via, "");
    conn->reset();
    runtime.reset();
  }
}

TEST_F(PluginTest, SixtyFourIdenticalPodsAtOnce) {
  auto runtime = Runtime();
  StartPlugin();
  auto conn = runtime->AcceptPlugin(seconds(30));
  ASSERT_TRUE(conn.ok()) << conn.status();
  constexpr int kPods = 64;
  std::vector<api::Container> results(kPods);
  std::vector<Status> errors(kPods);
  std::vector<std::thread> threads;
  threads.reserve(kPods);
  for (int i = 0; i < kPods; ++i) {
    threads.emplace_back([&, i] {
      uint32_t card = i % 8;
      api::PodSandbox pod = AssignedPod(i, card);
      // Identical pods: the device plugin's Allocate may have guessed
      // another pod's card, so CDI injected the wrong node.
      uint32_t wrong = (card + 3) % 8;
      api::Container c = rt::MakeContainer(
          pod, "main",
          {rt::CharDevice("/dev/gcu" + std::to_string(wrong), 238, wrong)});
      auto r = (*conn)->CreateContainer(pod, c);
      if (!r.ok()) {
        errors[i] = r.status();
        return;
      }
      results[i] = rt::ApplyAdjustment(c, r->adjust());
    });
  }
  for (auto& t : threads) t.join();
  for (int i = 0; i < kPods; ++i) {
    ASSERT_TRUE(errors[i].ok()) << i << ": " << errors[i];
    const std::string own = "/dev/gcu" + std::to_string(i % 8);
    EXPECT_EQ(GcuDevices(results[i]), std::set<std::string>{own}) << i;
    EXPECT_EQ(EnvValue(results[i], "ENFLAME_VISIBLE_DEVICES"),
              std::to_string(i % 8));
    EXPECT_EQ(EnvValue(results[i], "GCUSHARE_MEMORY_LIMIT_MB"), "4096");
    EXPECT_EQ(EnvValue(results[i], "GCUSHARE_MEMORY_TOTAL_MB"), "16384");
    EXPECT_EQ(EnvValue(results[i], "GCUSHARE_MEMORY_UNIT"), "1");
    const api::LinuxDevice& d =
        results[i].linux().devices(results[i].linux().devices_size() - 1);
    EXPECT_EQ(d.minor(), i % 8);
  }
}

TEST_F(PluginTest, StaleCdiInjectionEndsWithOnlyTheAssignedCard) {
  auto runtime = Runtime();
  StartPlugin();
  auto conn = runtime->AcceptPlugin(seconds(30));
  ASSERT_TRUE(conn.ok()) << conn.status();
  api::PodSandbox pod = AssignedPod(1, 2);
  api::Container c = rt::MakeContainer(
      pod, "main",
      {rt::CharDevice("/dev/gcu5", 238, 5), rt::CharDevice("/dev/gcu2", 238, 2),
       rt::CharDevice("/dev/gcuctl", 238, 255),
       rt::CharDevice("/dev/fuse", 10, 229)});
  auto r = (*conn)->CreateContainer(pod, c);
  ASSERT_TRUE(r.ok()) << r.status();
  api::Container out = rt::ApplyAdjustment(c, r->adjust());
  EXPECT_EQ(GcuDevices(out),
            (std::set<std::string>{"/dev/gcu2", "/dev/gcuctl"}));
  bool fuse = false;
  for (const auto& d : out.linux().devices()) fuse |= d.path() == "/dev/fuse";
  EXPECT_TRUE(fuse);
}

TEST_F(PluginTest, ContainersThatAskedForNothingAreUntouched) {
  auto runtime = Runtime();
  StartPlugin();
  auto conn = runtime->AcceptPlugin(seconds(30));
  ASSERT_TRUE(conn.ok()) << conn.status();
  api::PodSandbox pod = rt::MakePodSandbox("default", "plain", 5);
  api::Container c =
      rt::MakeContainer(pod, "main", {rt::CharDevice("/dev/gcu4", 238, 4)});
  auto r = (*conn)->CreateContainer(pod, c);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->ByteSizeLong(), 0u);
  // A sidecar of an assigned pod that is not in gcu-container-devices.
  api::PodSandbox assigned = AssignedPod(6, 1);
  auto sidecar =
      (*conn)->CreateContainer(assigned, rt::MakeContainer(assigned, "log"));
  ASSERT_TRUE(sidecar.ok());
  EXPECT_FALSE(sidecar->has_adjust());
}

TEST_F(PluginTest, MissingDeviceNodeFailsThatContainerOnly) {
  nodes_.Remove("/dev/gcu7");
  auto runtime = Runtime();
  StartPlugin();
  auto conn = runtime->AcceptPlugin(seconds(30));
  ASSERT_TRUE(conn.ok()) << conn.status();
  api::PodSandbox pod = AssignedPod(1, 7);
  auto r = (*conn)->CreateContainer(pod, rt::MakeContainer(pod, "main"));
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
  EXPECT_NE(r.status().message().find("/dev/gcu7"), std::string::npos);
  EXPECT_NE(r.status().message().find("refusing to run the container"),
            std::string::npos);
  api::PodSandbox other = AssignedPod(2, 6);
  EXPECT_TRUE(
      (*conn)->CreateContainer(other, rt::MakeContainer(other, "main")).ok());
  EXPECT_FALSE((*conn)->closed());
}

TEST_F(PluginTest, GarbageMethodPayloadIsAnsweredNotFatal) {
  auto runtime = Runtime();
  StartPlugin();
  auto conn = runtime->AcceptPlugin(seconds(30));
  ASSERT_TRUE(conn.ok()) << conn.status();
  // A valid ttrpc envelope whose CreateContainer payload is not protobuf:
  // answered InvalidArgument, like Go ttrpc; the connection stays.
  auto r = (*conn)->CallRaw("CreateContainer", "\xff\xff\xff\xff");
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_FALSE((*conn)->closed());
  api::PodSandbox pod = AssignedPod(1, 1);
  EXPECT_TRUE(
      (*conn)->CreateContainer(pod, rt::MakeContainer(pod, "main")).ok());
  EXPECT_TRUE(plugin_->WaitForRegistrations(1, seconds(10)));
  EXPECT_EQ(plugin_->registrations(), 1);
}

// `depth` nested groups of unknown field 100: protobuf keeps unknown groups,
// so only the nesting bound rejects them.
std::string NestedGroups(int depth) {
  std::string out;
  for (int i = 0; i < depth; ++i) out += "\xa3\x06";  // Start group 100.
  for (int i = 0; i < depth; ++i) out += "\xa4\x06";  // End group 100.
  return out;
}

TEST_F(PluginTest, DeepOrHugeMessagesAreAnsweredNotFatal) {
  auto runtime = Runtime();
  StartPlugin();
  auto conn = runtime->AcceptPlugin(seconds(30));
  ASSERT_TRUE(conn.ok()) << conn.status();
  // Deeper than the plugin's bound (within protobuf's own).
  auto deep = (*conn)->CallRaw("CreateContainer", NestedGroups(40));
  EXPECT_EQ(deep.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(deep.status().message().find("nested deeper than 32 levels"),
            std::string::npos)
      << deep.status();
  // Far deeper, and big (800 KB).
  auto deeper = (*conn)->CallRaw("CreateContainer", NestedGroups(200000));
  EXPECT_EQ(deeper.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(deeper.status().message().find("does not parse"), std::string::npos)
      << deeper.status();
  // Huge but within the 4 MiB frame: a 3 MiB environment is answered.
  api::PodSandbox pod = AssignedPod(1, 1);
  api::Container big = rt::MakeContainer(pod, "main");
  big.add_env("BIG=" + std::string(3 << 20, 'x'));
  auto r = (*conn)->CreateContainer(pod, big);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->adjust().linux().devices(0).path(), "/dev/gcu1");
  EXPECT_FALSE((*conn)->closed());
  EXPECT_EQ(plugin_->registrations(), 1);
}

struct BadInput {
  const char* name;
  uint32_t conn;
  std::string bytes;
};

TEST_F(PluginTest, BadFramesDropTheConnectionAndThePluginComesBack) {
  std::string oversized =
      ttrpc::EncodeFrameHeader({ttrpc::kMaxMessageLength + 1, 1001, 1, 0});
  std::string garbage =
      *ttrpc::EncodeFrame(1001, ttrpc::FrameType::kRequest, 0, "\xff\xff\xff");
  std::string not_a_request =
      *ttrpc::EncodeFrame(1001, ttrpc::FrameType::kResponse, 0, "");
  std::string deep_envelope = *ttrpc::EncodeFrame(
      1001, ttrpc::FrameType::kRequest, 0, NestedGroups(40));
  std::vector<BadInput> inputs = {
      {"length over the maximum", mux::kPluginServiceConn, oversized},
      {"unknown connection id", 9, "hello"},
      {"garbage protobuf", mux::kPluginServiceConn, garbage},
      {"response frame sent to the server", mux::kPluginServiceConn,
       not_a_request},
      {"request envelope nested too deep", mux::kPluginServiceConn,
       deep_envelope},
  };
  auto runtime = Runtime();
  StartPlugin();
  int registrations = 0;
  for (const BadInput& input : inputs) {
    SCOPED_TRACE(input.name);
    auto conn = runtime->AcceptPlugin(seconds(30));
    ASSERT_TRUE(conn.ok()) << conn.status();
    ++registrations;
    // The runtime sends Configure without waiting for its RegisterPlugin
    // answer to leave (as upstream does): wait until the plugin has it, so
    // that the bad bytes cannot overtake it.
    ASSERT_TRUE(plugin_->WaitForRegistrations(registrations, seconds(30)));
    ASSERT_TRUE((*conn)->WriteRaw(input.conn, input.bytes).ok());
    EXPECT_TRUE((*conn)->WaitClosed(seconds(30)));
  }
  // Truncated: half a frame, then the runtime's end goes away.
  {
    auto conn = runtime->AcceptPlugin(seconds(30));
    ASSERT_TRUE(conn.ok()) << conn.status();
    ++registrations;
    ASSERT_TRUE(plugin_->WaitForRegistrations(registrations, seconds(30)));
    std::string frame = *ttrpc::EncodeFrame(1001, ttrpc::FrameType::kRequest, 0,
                                            std::string(100, 'x'));
    ASSERT_TRUE(
        (*conn)->WriteRaw(mux::kPluginServiceConn, frame.substr(0, 30)).ok());
    (*conn)->Close();
  }
  // Truncated at the mux level, on a raw connection: 5 bytes of a header.
  {
    auto raw = runtime->AcceptRaw(seconds(30));
    ASSERT_TRUE(raw.ok());
    pollfd p{raw->get(), POLLIN, 0};
    ASSERT_EQ(::poll(&p, 1, 30000), 1);  // RegisterPlugin arrives.
    char buf[512];
    ASSERT_GT(::read(raw->get(), buf, sizeof(buf)), 0);
    ASSERT_EQ(::write(raw->get(), "\0\0\0\x01\0", 5), 5);
  }
  auto conn = runtime->AcceptPlugin(seconds(30));
  ASSERT_TRUE(conn.ok()) << conn.status();
  ++registrations;
  // The plugin counts a registration when RegisterPlugin's answer reaches
  // it, which may be after the runtime finished the handshake.
  EXPECT_TRUE(plugin_->WaitForRegistrations(registrations, seconds(10)));
  EXPECT_EQ(plugin_->registrations(), registrations);
  api::PodSandbox pod = AssignedPod(1, 1);
  EXPECT_TRUE(
      (*conn)->CreateContainer(pod, rt::MakeContainer(pod, "main")).ok());
}

TEST_F(PluginTest, SilentRuntimeDoesNotHangThePlugin) {
  auto runtime = Runtime();
  StartPlugin(milliseconds(200));
  {
    // Accepts, never answers RegisterPlugin: the plugin gives up and redials.
    auto raw = runtime->AcceptRaw(seconds(30));
    ASSERT_TRUE(raw.ok());
    auto second = runtime->AcceptRaw(seconds(30));
    ASSERT_TRUE(second.ok()) << second.status();
  }
  auto conn = runtime->AcceptPlugin(seconds(30));
  ASSERT_TRUE(conn.ok()) << conn.status();
}

TEST_F(PluginTest, RuntimeRestartThePluginRegistersAgain) {
  StartPlugin();  // Before the runtime exists: it keeps retrying.
  auto runtime = Runtime();
  auto conn = runtime->AcceptPlugin(seconds(30));
  ASSERT_TRUE(conn.ok()) << conn.status();
  ASSERT_TRUE(plugin_->WaitForRegistrations(1, seconds(10)));
  conn->reset();
  runtime.reset();  // containerd stops: socket closed and removed.

  auto restarted = Runtime(rt::NriVersion::kV0_12);
  auto again = restarted->AcceptPlugin(seconds(30));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_TRUE(plugin_->WaitForRegistrations(2, seconds(10)));
  api::PodSandbox pod = AssignedPod(3, 4);
  auto r = (*again)->CreateContainer(pod, rt::MakeContainer(pod, "main"));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->adjust().linux().devices(0).path(), "/dev/gcu4");
}

TEST_F(PluginTest, ShutdownEndsTheSessionAndThePluginReconnects) {
  auto runtime = Runtime();
  StartPlugin();
  auto conn = runtime->AcceptPlugin(seconds(30));
  ASSERT_TRUE(conn.ok()) << conn.status();
  EXPECT_TRUE((*conn)->Shutdown().ok());
  EXPECT_TRUE((*conn)->WaitClosed(seconds(30)));
  auto again = runtime->AcceptPlugin(seconds(30));
  ASSERT_TRUE(again.ok()) << again.status();
}

TEST_F(PluginTest, StopsPromptlyWhileConnected) {
  auto runtime = Runtime();
  StartPlugin();
  auto conn = runtime->AcceptPlugin(seconds(30));
  ASSERT_TRUE(conn.ok());
  StopPlugin();
  EXPECT_TRUE((*conn)->WaitClosed(seconds(10)));
}

// A TCP port that accepts connections into its backlog and never answers:
// an API server that is stalled.
class StalledServer {
 public:
  StalledServer() {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    EXPECT_EQ(::listen(fd_, 64), 0);
    socklen_t len = sizeof addr;
    EXPECT_EQ(::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len), 0);
    port_ = ntohs(addr.sin_port);
  }
  ~StalledServer() { ::close(fd_); }
  std::string url() const {
    return "http://127.0.0.1:" + std::to_string(port_);
  }

 private:
  int fd_ = -1;
  int port_ = 0;
};

// A core/v1 Pod for the cache: `uid`, one container "main" with `memory`
// units of enflame.com/gcu-memory (none when 0).
nlohmann::json CachedPod(const api::PodSandbox& sandbox, uint64_t memory) {
  nlohmann::json container = {{"name", "main"}, {"image", "x"}};
  if (memory > 0) {
    container["resources"]["limits"]["enflame.com/gcu-memory"] =
        std::to_string(memory);
  }
  return {{"metadata",
           {{"name", sandbox.name()},
            {"namespace", sandbox.namespace_()},
            {"uid", sandbox.uid()}}},
          {"spec", {{"nodeName", "n1"}, {"containers", {container}}}}};
}

class PodCachePluginTest : public PluginTest {
 protected:
  void SetUp() override {
    PluginTest::SetUp();
    kube::ClientConfig config;
    config.server = stalled_.url();
    kube::KubeClientOptions options;
    options.http.request_timeout = std::chrono::seconds(5);
    options.retry.max_attempts = 1;
    auto client = kube::CurlKubeClient::Create(config, options);
    ASSERT_TRUE(client.ok());
    client_ = std::move(*client);
    marker_ = std::make_unique<assignment::AssignedMarker>(
        client_.get(), &clock_,
        base::BackoffOptions{milliseconds(10), milliseconds(100), 2.0, 0.0});
    marker_->Start();
    events_.Start();
    adjuster_with_cache_ = std::make_unique<ContainerAdjuster>(
        &nodes_, nullptr, AdjusterOptions{}, &pods_, marker_.get(), &events_);
  }
  void TearDown() override {
    StopPlugin();
    marker_->Stop();
    events_.Stop();
  }

  StalledServer stalled_;
  PodCache pods_{milliseconds(50)};
  std::unique_ptr<kube::CurlKubeClient> client_;
  std::unique_ptr<assignment::AssignedMarker> marker_;
  kube::FakeKubeClient event_sink_;
  kube::EventQueue events_{&event_sink_, "gcushare-nri-plugin"};
  std::unique_ptr<ContainerAdjuster> adjuster_with_cache_;
};

// The API server is stalled: CreateContainer answers from the pod cache
// and marks the pod in the background, inside containerd's 2 s deadline
// (marking synchronously used to block past it, and containerd then
// creates the container without its card).
TEST_F(PodCachePluginTest, StalledApiServerDoesNotDelayTheCard) {
  auto runtime = Runtime();
  StartPlugin(milliseconds(5000), adjuster_with_cache_.get());
  auto conn = runtime->AcceptPlugin(seconds(30));
  ASSERT_TRUE(conn.ok()) << conn.status();
  api::PodSandbox pod = AssignedPod(1, 3);
  pods_.OnAdd(CachedPod(pod, 4));
  auto r = (*conn)->CreateContainer(pod, rt::MakeContainer(pod, "main"));
  ASSERT_TRUE(r.ok()) << r.status();
  api::Container out =
      rt::ApplyAdjustment(rt::MakeContainer(pod, "main"), r->adjust());
  EXPECT_EQ(GcuDevices(out), (std::set<std::string>{"/dev/gcu3"}));
  EXPECT_EQ(marker_->pending(), 1u);  // Still trying the stalled server.
}

// Annotations alone (anyone can set them) get no card: the spec must ask.
TEST_F(PodCachePluginTest, AnnotationsWithoutARequestGetNoCard) {
  auto runtime = Runtime();
  StartPlugin(milliseconds(5000), adjuster_with_cache_.get());
  auto conn = runtime->AcceptPlugin(seconds(30));
  ASSERT_TRUE(conn.ok()) << conn.status();
  api::PodSandbox pod = AssignedPod(2, 5);
  pods_.OnAdd(CachedPod(pod, 0));
  api::Container c =
      rt::MakeContainer(pod, "main", {rt::CharDevice("/dev/gcu5", 238, 5)});
  auto r = (*conn)->CreateContainer(pod, c);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_FALSE(r->has_adjust());
  EXPECT_EQ(marker_->pending(), 0u);
  // An event tells the pod's owner why (posted in the background, once).
  auto again = (*conn)->CreateContainer(pod, c);
  ASSERT_TRUE(again.ok());
  gcushare::testing::Eventually([&] { return events_.pending() == 0; });
  auto events = event_sink_.List(kube::Resource::Events(), "default",
                                 kube::ListOptions{});
  ASSERT_TRUE(events.ok()) << events.status();
  ASSERT_EQ(events->items.size(), 1u);
  EXPECT_EQ(events->items[0]["reason"], "GCUNotRequested");
  EXPECT_EQ(events->items[0]["type"], "Warning");
}

// A pod the watch has not brought within the wait fails that container
// (kubelet retries) instead of running it without its card.
TEST_F(PodCachePluginTest, UnknownPodFailsTheContainerClearly) {
  auto runtime = Runtime();
  StartPlugin(milliseconds(5000), adjuster_with_cache_.get());
  auto conn = runtime->AcceptPlugin(seconds(30));
  ASSERT_TRUE(conn.ok()) << conn.status();
  api::PodSandbox pod = AssignedPod(3, 1);
  auto r = (*conn)->CreateContainer(pod, rt::MakeContainer(pod, "main"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("not in the plugin's watch"),
            std::string::npos)
      << r.status();
  EXPECT_FALSE((*conn)->closed());
}

// The runtime's request deadline (ConfigureRequest.request_timeout, NRI
// v0.7+) caps the pod wait at half of it: a pod the watch has not brought
// is failed clearly before the runtime gives up on the call (and then
// creates the container without its card), however long --pod-wait is.
TEST_F(PluginTest, PodWaitIsCappedByTheRuntimesRequestTimeout) {
  rt::RuntimeOptions options;
  options.socket_path = socket_;
  options.version = rt::NriVersion::kV0_8;
  options.request_timeout = milliseconds(1000);
  auto runtime = rt::NriRuntime::Listen(options);
  ASSERT_TRUE(runtime.ok()) << runtime.status();
  PodCache pods(seconds(60));  // --pod-wait far past the deadline.
  ContainerAdjuster adjuster(&nodes_, nullptr, AdjusterOptions{}, &pods);
  StartPlugin(milliseconds(5000), &adjuster);
  auto conn = (*runtime)->AcceptPlugin(seconds(30));
  ASSERT_TRUE(conn.ok()) << conn.status();
  api::PodSandbox pod = AssignedPod(4, 2);
  auto r = (*conn)->CreateContainer(pod, rt::MakeContainer(pod, "main"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("not in the plugin's watch of this "
                                      "node's pods after 500 ms"),
            std::string::npos)
      << r.status();
  EXPECT_FALSE((*conn)->closed());
  StopPlugin();
}

// The device-cgroup rules of the resulting OCI spec, as containerd builds
// it (the stand-in applies adjustments as containerd's NRI adaptation
// does): {allow, type, major, minor, access} per rule.
std::vector<std::string> Rules(const nlohmann::ordered_json& spec) {
  std::vector<std::string> out;
  for (const auto& r : spec["linux"]["resources"]["devices"]) {
    std::string rule = r["allow"].get<bool>() ? "allow" : "deny";
    rule += " " + r.value("type", std::string("a"));
    rule += " " + (r.contains("major") ? std::to_string(r["major"].get<int>())
                                       : std::string("*"));
    rule += ":" + (r.contains("minor") ? std::to_string(r["minor"].get<int>())
                                       : std::string("*"));
    rule += " " + r["access"].get<std::string>();
    out.push_back(rule);
  }
  return out;
}

std::vector<std::string> DevicePaths(const nlohmann::ordered_json& spec) {
  std::vector<std::string> out;
  for (const auto& d : spec["linux"]["devices"]) out.push_back(d["path"]);
  return out;
}

// (a) The device plugin ran with --devices-from-nri: Allocate answered the
// environment only, so the container arrives without a card, and NRI's
// adjustment is the only device and the only allow rule.
TEST_F(PluginTest, DevicesFromNriLeaveOnlyTheAssignedCardAllowed) {
  auto runtime = Runtime();
  StartPlugin();
  auto conn = runtime->AcceptPlugin(seconds(30));
  ASSERT_TRUE(conn.ok()) << conn.status();
  api::PodSandbox pod = AssignedPod(5, 3);
  api::Container created = rt::MakeContainer(pod, "main");
  auto r = (*conn)->CreateContainer(pod, created);
  ASSERT_TRUE(r.ok()) << r.status();
  auto spec = rt::ContainerSpecJson(rt::ApplyAdjustment(created, r->adjust()));
  EXPECT_EQ(DevicePaths(spec), std::vector<std::string>{"/dev/gcu3"});
  // FakeDeviceNodes: card N is c 238:N.
  EXPECT_EQ(Rules(spec),
            (std::vector<std::string>{"deny a *:* rwm", "allow c 238:3 rw"}));
}

// (b) Without --devices-from-nri, Allocate guessed the wrong pod among
// identical ones and its DeviceSpec put /dev/gcu5 and an allow rule for
// 238:5 in the spec. The plugin removes the node, but containerd removes
// no rule and applies none from a plugin: the allow rule for 238:5 stays
// (a process with CAP_MKNOD could open that card). The plugin warns, once
// per card; --devices-from-nri (the chart's default beside the NRI plugin)
// keeps the rule from being added at all, as (a) shows.
TEST_F(PluginTest, RemovedWrongCardKeepsItsAllowRuleAndIsWarnedOnce) {
  auto sink = std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(256);
  auto previous = spdlog::default_logger();
  spdlog::set_default_logger(std::make_shared<spdlog::logger>("test", sink));
  auto runtime = Runtime();
  StartPlugin();
  auto conn = runtime->AcceptPlugin(seconds(30));
  ASSERT_TRUE(conn.ok()) << conn.status();
  for (int i : {6, 7}) {
    api::PodSandbox pod = AssignedPod(i, 3);
    api::Container created =
        rt::MakeContainer(pod, "main", {rt::CharDevice("/dev/gcu5", 238, 5)});
    auto r = (*conn)->CreateContainer(pod, created);
    ASSERT_TRUE(r.ok()) << r.status();
    auto spec =
        rt::ContainerSpecJson(rt::ApplyAdjustment(created, r->adjust()));
    EXPECT_EQ(DevicePaths(spec), std::vector<std::string>{"/dev/gcu3"});
    EXPECT_EQ(Rules(spec),
              (std::vector<std::string>{"deny a *:* rwm", "allow c 238:5 rwm",
                                        "allow c 238:3 rw"}));
  }
  int warnings = 0;
  for (const std::string& line : sink->last_formatted()) {
    warnings += line.find("removed /dev/gcu5") != std::string::npos &&
                line.find("allow rule stays") != std::string::npos;
  }
  spdlog::set_default_logger(previous);
  EXPECT_EQ(warnings, 1);
}

}  // namespace
}  // namespace gcushare::nri
