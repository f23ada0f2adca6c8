// The device plugin's metrics, scraped over HTTP from metrics/HttpEndpoint
// after driving the plugin through the stand-in kubelet and API server.
#include <gtest/gtest.h>
#include <httplib.h>

#include <chrono>
#include <functional>
#include <thread>

#include "device-plugin/testing/plugin_fixture.h"
#include "metrics/http_endpoint.h"
#include "metrics/registry.h"
#include "testing/eventually.h"

namespace gcushare::deviceplugin {
namespace {

using testing::CardsYaml;
using testing::FixtureOptions;
using testing::PluginFixture;

FixtureOptions WithRegistry(metrics::Registry* registry) {
  FixtureOptions options;
  options.registry = registry;
  return options;
}

class MetricsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(f_.StartPlugin().ok());
    ASSERT_TRUE(f_.WaitForDevices(128));
    auto endpoint = metrics::HttpEndpoint::Start(&registry_, "127.0.0.1", 0);
    ASSERT_TRUE(endpoint.ok()) << endpoint.status();
    endpoint_ = std::move(*endpoint);
  }
  std::string Scrape() {
    httplib::Client client("127.0.0.1", endpoint_->port());
    auto res = client.Get("/metrics");
    EXPECT_TRUE(res);
    if (!res) return "";
    EXPECT_EQ(res->status, 200);
    return res->body;
  }
  // Scrapes until `done` holds (20 s at most).
  bool WaitForScrape(const std::function<bool(const std::string&)>& done) {
    return gcushare::testing::Eventually([&] { return done(Scrape()); },
                                         std::chrono::seconds(20));
  }
  bool Has(const std::string& sample) {
    return Scrape().find(sample + "\n") != std::string::npos;
  }

  metrics::Registry registry_;  // Outlives the plugin and the endpoint.
  PluginFixture f_{WithRegistry(&registry_)};
  std::unique_ptr<metrics::HttpEndpoint> endpoint_;
};

TEST_F(MetricsTest, AllocationsAndFailuresByReason) {
  f_.CreateBoundPod({.name = "p", .card = 2});
  ASSERT_TRUE(f_.Allocate(4).ok());
  auto none = f_.Allocate(4);  // No pod waits for it.
  ASSERT_EQ(none.status().code(), StatusCode::kNotFound);
  std::string body = Scrape();
  for (const char* sample :
       {"gcushare_device_plugin_allocations_total{result=\"ok\"} 1",
        "gcushare_device_plugin_allocations_total{result=\"error\"} 1",
        "gcushare_device_plugin_allocate_failures_total{reason=\"no_pod\"} 1",
        "gcushare_device_plugin_allocate_failures_total{reason=\"bad_"
        "request\"} 0"}) {
    EXPECT_NE(body.find(std::string(sample) + "\n"), std::string::npos)
        << sample << "\n"
        << body;
  }
}

TEST_F(MetricsTest, CardHealthAndNodePatches) {
  EXPECT_TRUE(
      Has("gcushare_device_plugin_card_healthy{node=\"node-1\",card=\"1\"} 1"));
  f_.SetCards(CardsYaml(8, 16384, {1}));  // Polls health once.
  std::string body = Scrape();
  EXPECT_NE(body.find("gcushare_device_plugin_card_healthy{node=\"node-1\","
                      "card=\"1\"} 0\n"),
            std::string::npos)
      << body;
  EXPECT_NE(body.find("gcushare_device_plugin_card_healthy{node=\"node-1\","
                      "card=\"0\"} 1\n"),
            std::string::npos)
      << body;
  // Node patches run in the background: wait until the one for the change
  // (the second, after the one at start) is counted.
  EXPECT_TRUE(WaitForScrape([](const std::string& body) {
    const std::string ok =
        "gcushare_device_plugin_node_patches_total{result=\"ok\"} ";
    size_t at = body.find(ok);
    return at != std::string::npos &&
           std::stoi(body.substr(at + ok.size())) >= 2;
  })) << Scrape();
  EXPECT_TRUE(
      Has("gcushare_device_plugin_node_patches_total{result=\"error\"} 0"));
}

}  // namespace
}  // namespace gcushare::deviceplugin
