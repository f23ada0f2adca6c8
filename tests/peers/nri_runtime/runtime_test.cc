// The stand-in runtime against a minimal hand-made plugin built from the
// same ttrpc and mux layers: registration checks, Configure mask checks,
// Synchronize chunking and the v0.12 per-event RPC with StateChange
// fallback.
#include "tests/peers/nri_runtime/runtime.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "nri-plugin/mux/trunk.h"
#include "nri-plugin/protocol.h"
#include "nri-plugin/ttrpc/client.h"
#include "nri-plugin/ttrpc/server.h"
#include "testing/files.h"
#include "tests/peers/nri_runtime/fixtures.h"

namespace gcushare::nri_runtime {
namespace {

using std::chrono::seconds;

// A tiny plugin: subscribes to `mask`, counts calls per method.
class ToyPlugin {
 public:
  ToyPlugin(const std::string& socket, int32_t mask, const std::string& index,
            bool implement_start)
      : trunk_(std::move(*nri::ConnectUnix(socket))),
        server_(trunk_.Sink(1)),
        client_(trunk_.Sink(2)) {
    const std::string svc(nri::kPluginService);
    server_.RegisterProto<api::ConfigureRequest, api::ConfigureResponse>(
        svc, "Configure",
        [mask, this](const nri::ttrpc::RequestContext& c,
                     const api::ConfigureRequest& r)
            -> StatusOr<api::ConfigureResponse> {
          configure_ = r;
          configure_metadata_ = c.metadata.size();
          api::ConfigureResponse out;
          out.set_events(mask);
          return out;
        });
    server_.RegisterProto<api::SynchronizeRequest, api::SynchronizeResponse>(
        svc, "Synchronize",
        [this](const nri::ttrpc::RequestContext&,
               const api::SynchronizeRequest& r)
            -> StatusOr<api::SynchronizeResponse> {
          sync_calls_++;
          synced_pods_ += r.pods_size();
          synced_containers_ += r.containers_size();
          api::SynchronizeResponse out;
          out.set_more(r.more());
          return out;
        });
    server_.RegisterProto<api::StateChangeEvent, api::Empty>(
        svc, "StateChange",
        [this](const nri::ttrpc::RequestContext& c,
               const api::StateChangeEvent& e) -> StatusOr<api::Empty> {
          last_event_ = e.event();
          if (!c.metadata.empty()) last_metadata_ = c.metadata[0].second;
          return api::Empty();
        });
    if (implement_start) {
      server_.RegisterProto<api::ContainerEventRequest, api::Empty>(
          svc, "StartContainer",
          [this](const nri::ttrpc::RequestContext&,
                 const api::ContainerEventRequest&) -> StatusOr<api::Empty> {
            start_calls_++;
            return api::Empty();
          });
    }
    trunk_.Attach(1, &server_);
    trunk_.Attach(2, &client_);
    trunk_.Start([this](const Status& s) { client_.Fail(s); });
    register_ = std::thread([this, index] {
      api::RegisterPluginRequest r;
      r.set_plugin_name("toy");
      r.set_plugin_idx(index);
      registered_ = client_
                        .CallProto<api::Empty>(nri::kRuntimeService,
                                               "RegisterPlugin", r, seconds(10))
                        .status();
    });
  }
  ~ToyPlugin() {
    register_.join();
    trunk_.Close();
    trunk_.Join();
    server_.Stop();
  }

  nri::mux::Trunk trunk_;
  nri::ttrpc::Server server_;
  nri::ttrpc::Client client_;
  std::thread register_;
  Status registered_;
  api::ConfigureRequest configure_;
  size_t configure_metadata_ = 99;
  std::atomic<int> sync_calls_{0}, synced_pods_{0}, synced_containers_{0};
  std::atomic<int> start_calls_{0};
  std::atomic<int> last_event_{0};
  std::string last_metadata_;
};

RuntimeOptions Options(NriVersion v) {
  RuntimeOptions o;
  o.socket_path = gcushare::testing::MakeTempDir() + "/nri.sock";
  o.version = v;
  return o;
}

SyncState State(int pods) {
  SyncState s;
  for (int i = 0; i < pods; ++i) {
    s.pods.push_back(MakePodSandbox("default", "p" + std::to_string(i), i));
    s.containers.push_back(MakeContainer(s.pods.back(), "c"));
  }
  return s;
}

TEST(NriRuntimeTest, V04HandshakeAndStateChangeEvents) {
  auto runtime = NriRuntime::Listen(Options(NriVersion::kV0_4));
  ASSERT_TRUE(runtime.ok()) << runtime.status();
  ToyPlugin toy((*runtime)->options().socket_path,
                nri::EventMask({api::START_CONTAINER}), "42", true);
  auto conn = (*runtime)->AcceptPlugin(seconds(10), State(3));
  ASSERT_TRUE(conn.ok()) << conn.status();
  EXPECT_EQ((*conn)->plugin_name(), "toy");
  EXPECT_EQ((*conn)->plugin_index(), "42");
  EXPECT_EQ(toy.configure_.runtime_name(), "containerd");
  EXPECT_EQ(toy.configure_.request_timeout(), 0);  // Not sent before v0.7.
  EXPECT_EQ(toy.configure_metadata_, 0u);
  EXPECT_EQ(toy.sync_calls_.load(), 1);
  EXPECT_EQ(toy.synced_pods_.load(), 3);

  api::PodSandbox pod = MakePodSandbox("default", "x", 9);
  api::Container c = MakeContainer(pod, "main");
  std::string via;
  ASSERT_TRUE((*conn)->SendEvent(api::START_CONTAINER, pod, &c, &via).ok());
  EXPECT_EQ(via, "StateChange");
  EXPECT_EQ(toy.last_event_.load(), api::START_CONTAINER);
  EXPECT_EQ(toy.last_metadata_, "k8s.io");
  EXPECT_EQ(toy.start_calls_.load(), 0);
  // Not subscribed: not sent.
  ASSERT_TRUE((*conn)->SendEvent(api::REMOVE_CONTAINER, pod, &c, &via).ok());
  EXPECT_EQ(via, "");
  // CreateContainer not subscribed: an empty answer without a call.
  auto created = (*conn)->CreateContainer(pod, c);
  ASSERT_TRUE(created.ok());
  EXPECT_FALSE(created->has_adjust());
}

TEST(NriRuntimeTest, V012UsesPerEventRpcAndFallsBack) {
  for (bool implement : {true, false}) {
    RuntimeOptions o = Options(NriVersion::kV0_12);
    o.sync_chunk = 2;
    auto runtime = NriRuntime::Listen(o);
    ASSERT_TRUE(runtime.ok());
    ToyPlugin toy(o.socket_path, nri::EventMask({api::START_CONTAINER}), "10",
                  implement);
    auto conn = (*runtime)->AcceptPlugin(seconds(10), State(3));
    ASSERT_TRUE(conn.ok()) << conn.status();
    EXPECT_EQ(toy.configure_.nri_version(), "v0.12.2");
    EXPECT_EQ(toy.configure_.request_timeout(), 2000);
    EXPECT_EQ(toy.sync_calls_.load(), 3);  // 6 objects in chunks of 2.
    EXPECT_EQ(toy.synced_containers_.load(), 3);
    api::PodSandbox pod = MakePodSandbox("default", "x", 9);
    api::Container c = MakeContainer(pod, "main");
    std::string via;
    ASSERT_TRUE((*conn)->SendEvent(api::START_CONTAINER, pod, &c, &via).ok());
    EXPECT_EQ(via, implement ? "StartContainer" : "StateChange");
    EXPECT_EQ(toy.start_calls_.load(), implement ? 1 : 0);
  }
}

TEST(NriRuntimeTest, MaskOutsideTheVersionFailsConfiguration) {
  auto runtime = NriRuntime::Listen(Options(NriVersion::kV0_4));
  ASSERT_TRUE(runtime.ok());
  ToyPlugin toy((*runtime)->options().socket_path,
                nri::EventMask({api::VALIDATE_CONTAINER_ADJUSTMENT}), "10",
                false);
  auto conn = (*runtime)->AcceptPlugin(seconds(10));
  EXPECT_EQ(conn.status().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(toy.trunk_.WaitClosed(seconds(10)));
}

TEST(NriRuntimeTest, BadIndexIsRefused) {
  RuntimeOptions o = Options(NriVersion::kV0_4);
  o.registration_timeout = std::chrono::milliseconds(300);
  auto runtime = NriRuntime::Listen(o);
  ASSERT_TRUE(runtime.ok());
  ToyPlugin toy(o.socket_path, 0, "7", false);
  auto conn = (*runtime)->AcceptPlugin(seconds(10));
  EXPECT_EQ(conn.status().code(), StatusCode::kDeadlineExceeded);
  toy.register_.join();
  toy.register_ = std::thread([] {});
  EXPECT_EQ(toy.registered_.code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace gcushare::nri_runtime
