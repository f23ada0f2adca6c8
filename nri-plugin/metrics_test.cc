// The NRI plugin's metrics, scraped over HTTP from metrics/HttpEndpoint
// after driving NriPlugin through the stand-in NRI runtime (real unix
// socket, mux and ttrpc).
#include <gtest/gtest.h>
#include <httplib.h>

#include <memory>
#include <string>
#include <thread>

#include "base/clock.h"
#include "contract/annotations.h"
#include "metrics/http_endpoint.h"
#include "metrics/registry.h"
#include "nri-plugin/fake_device_nodes.h"
#include "nri-plugin/plugin.h"
#include "nri-plugin/plugin_metrics.h"
#include "testing/files.h"
#include "tests/peers/nri_runtime/fixtures.h"
#include "tests/peers/nri_runtime/runtime.h"

namespace gcushare::nri {
namespace {

namespace rt = ::gcushare::nri_runtime;
using std::chrono::milliseconds;
using std::chrono::seconds;

// A pod assigned `card`, with one container "main" asking for 4 units.
api::PodSandbox AssignedPod(int i, uint32_t card) {
  contract::CardAssignment a;
  a.cards = {card};
  a.card_memory_units = 16;
  a.request_units = 4;
  a.container_cards["main"] = {card};
  return rt::MakePodSandbox("default", "pod-" + std::to_string(i), i,
                            contract::EncodeAssignment(a));
}

class NriMetricsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    socket_ = gcushare::testing::MakeTempDir() + "/nri.sock";
    nodes_.AddCards(8);
    auto endpoint = metrics::HttpEndpoint::Start(&registry_, "127.0.0.1", 0);
    ASSERT_TRUE(endpoint.ok()) << endpoint.status();
    endpoint_ = std::move(*endpoint);
    PluginOptions options;
    options.session.socket_path = socket_;
    options.session.metrics = &metrics_;
    options.backoff = {milliseconds(10), milliseconds(200), 2.0, 0.0};
    plugin_ = std::make_unique<NriPlugin>(options, &adjuster_, &clock_);
  }
  void TearDown() override {
    cancel_.Cancel();
    if (runner_.joinable()) runner_.join();
  }
  void Run() {
    runner_ = std::thread([this] { plugin_->Run(&cancel_); });
  }
  std::unique_ptr<rt::NriRuntime> Runtime() {
    rt::RuntimeOptions options;
    options.socket_path = socket_;
    auto runtime = rt::NriRuntime::Listen(options);
    EXPECT_TRUE(runtime.ok()) << runtime.status();
    return std::move(*runtime);
  }
  std::string Scrape() {
    httplib::Client client("127.0.0.1", endpoint_->port());
    auto res = client.Get("/metrics");
    EXPECT_TRUE(res);
    if (!res) return "";
    EXPECT_EQ(res->status, 200);
    return res->body;
  }
  // The value of the sample line starting with `series` ("" if absent).
  std::string Value(const std::string& body, const std::string& series) {
    size_t at = body.find("\n" + series + " ");
    if (at == std::string::npos) return "";
    at += series.size() + 2;
    return body.substr(at, body.find('\n', at) - at);
  }

  std::string socket_;
  metrics::Registry registry_;  // Outlives everything below.
  NriMetrics metrics_{&registry_};
  std::unique_ptr<metrics::HttpEndpoint> endpoint_;
  FakeDeviceNodes nodes_;
  ContainerAdjuster adjuster_{&nodes_, nullptr, {}};
  base::RealClock clock_;
  base::Cancellation cancel_;
  std::unique_ptr<NriPlugin> plugin_;
  std::thread runner_;
};

TEST_F(NriMetricsTest, CreateContainerLatencyAdjustmentsAndRefusals) {
  nodes_.Remove("/dev/gcu7");
  auto runtime = Runtime();
  Run();
  auto conn = runtime->AcceptPlugin(seconds(30));
  ASSERT_TRUE(conn.ok()) << conn.status();
  for (int i = 0; i < 2; ++i) {
    api::PodSandbox pod = AssignedPod(i, i);
    ASSERT_TRUE(
        (*conn)->CreateContainer(pod, rt::MakeContainer(pod, "main")).ok());
  }
  api::PodSandbox plain = rt::MakePodSandbox("default", "plain", 5);
  ASSERT_TRUE(
      (*conn)->CreateContainer(plain, rt::MakeContainer(plain, "main")).ok());
  api::PodSandbox missing = AssignedPod(9, 7);
  ASSERT_EQ((*conn)
                ->CreateContainer(missing, rt::MakeContainer(missing, "main"))
                .status()
                .code(),
            StatusCode::kNotFound);

  std::string body = Scrape();
  EXPECT_EQ(Value(body, "gcushare_nri_create_container_duration_seconds_count"),
            "4")
      << body;
  EXPECT_EQ(
      Value(
          body,
          "gcushare_nri_create_container_duration_seconds_bucket{le=\"+Inf\"}"),
      "4")
      << body;
  // The plain pod's container asked for nothing: no adjustment.
  EXPECT_EQ(Value(body, "gcushare_nri_adjustments_total"), "2") << body;
  EXPECT_EQ(
      Value(body,
            "gcushare_nri_containers_refused_total{reason=\"not_found\"}"),
      "1")
      << body;
  EXPECT_EQ(
      Value(body, "gcushare_nri_containers_refused_total{reason=\"invalid\"}"),
      "0")
      << body;
  EXPECT_EQ(Value(body, "gcushare_nri_reconnects_total"), "0") << body;
}

TEST_F(NriMetricsTest, RuntimeRestartCountsAReconnect) {
  auto runtime = Runtime();
  Run();
  auto conn = runtime->AcceptPlugin(seconds(30));
  ASSERT_TRUE(conn.ok()) << conn.status();
  ASSERT_TRUE(plugin_->WaitForRegistrations(1, seconds(10)));
  conn->reset();
  runtime.reset();  // The runtime goes away: the session ends.
  auto restarted = Runtime();
  auto again = restarted->AcceptPlugin(seconds(30));
  ASSERT_TRUE(again.ok()) << again.status();
  ASSERT_TRUE(plugin_->WaitForRegistrations(2, seconds(10)));
  // Counted before each retry, so before the second registration.
  std::string body = Scrape();
  std::string reconnects = Value(body, "gcushare_nri_reconnects_total");
  ASSERT_FALSE(reconnects.empty()) << body;
  EXPECT_GE(std::stoi(reconnects), 1) << body;
}

}  // namespace
}  // namespace gcushare::nri
