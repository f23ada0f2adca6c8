#include "kubectl-plugin/inspect_fetch.h"

#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>

#include "base/testing/fake_clock.h"
#include "extender/card_cache.h"
#include "extender/extender_service.h"
#include "extender/http_server.h"
#include "extender/testing/objects.h"
#include "kube/curl_http_client.h"
#include "kube/testing/fake_kube_client.h"
#include "kubectl-plugin/testing/fake_extender.h"
#include "metrics/registry.h"

namespace gcushare::kubectl_plugin {
namespace {

using std::chrono::seconds;

TEST(InspectFetchTest, Urls) {
  struct Case {
    const char* base;
    const char* node;
    const char* url;
  };
  for (const Case& c : {
           Case{"http://127.0.0.1:32766", "",
                "http://127.0.0.1:32766/gcushare-scheduler/inspect"},
           Case{"http://127.0.0.1:32766/", "node-a",
                "http://127.0.0.1:32766/gcushare-scheduler/inspect/node-a"},
           Case{"http://ext:32766/gcushare-scheduler", "",
                "http://ext:32766/gcushare-scheduler/inspect"},
           Case{"https://ext/gcushare-scheduler/", "n",
                "https://ext/gcushare-scheduler/inspect/n"},
           Case{"http://127.0.0.1:8001/api/v1/namespaces/kube-system/services/"
                "gcushare-scheduler-extender:32766/proxy",
                "",
                "http://127.0.0.1:8001/api/v1/namespaces/kube-system/services/"
                "gcushare-scheduler-extender:32766/proxy/gcushare-scheduler/"
                "inspect"},
           Case{"http://h", "a b/c",
                "http://h/gcushare-scheduler/inspect/a%20b%2Fc"},
       }) {
    auto url = InspectUrl(c.base, c.node);
    ASSERT_TRUE(url.ok()) << c.base << ": " << url.status().ToString();
    EXPECT_EQ(*url, c.url);
  }
  for (const char* bad : {"", "127.0.0.1:32766", "ftp://h", "http://",
                          "http:///x", "http://h/?a=1"}) {
    auto url = InspectUrl(bad, "");
    ASSERT_FALSE(url.ok()) << bad;
    EXPECT_EQ(url.status().code(), StatusCode::kInvalidArgument) << bad;
  }
}

// Against the extender's own HTTP server (the real transport and the real
// /inspect answers), so what is asserted is what the extender serves, not
// what a fake was told to say.
class InspectFetchServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    cache_.UpsertNode(extender::testing::SharingNode("n1", 2, 16, "0.1"));
    cache_.UpsertNode(extender::testing::SharingNode("n2", 1, 16));
    extender::HttpServerOptions options;
    options.address = "127.0.0.1";
    options.port = 0;
    options.worker_threads = 2;
    server_ = std::make_unique<extender::ExtenderHttpServer>(
        &service_, &registry_, options);
    ASSERT_TRUE(server_->Start().ok());
    base_url_ = "http://127.0.0.1:" + std::to_string(server_->port());
  }

  extender::CardCache cache_;
  kube::FakeKubeClient api_;
  base::FakeClock clock_;
  metrics::Registry registry_;
  extender::ExtenderService service_{&cache_, &api_, &clock_,
                                     placement::Policy::kBinpack, &registry_};
  std::unique_ptr<extender::ExtenderHttpServer> server_;
  std::string base_url_;
  kube::CurlHttpClient client_{kube::TlsConfig{}};
};

std::vector<std::string> NodeNames(const std::string& body) {
  nlohmann::json parsed = nlohmann::json::parse(body, nullptr, false);
  std::vector<std::string> names;
  if (!parsed.is_object() || !parsed["nodes"].is_array()) return names;
  for (const nlohmann::json& node : parsed["nodes"]) {
    names.push_back(node.value("name", "?"));
  }
  return names;
}

TEST_F(InspectFetchServerTest, GetsAllAndOneNode) {
  auto all = FetchInspect(&client_, base_url_, "", seconds(10));
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  EXPECT_EQ(NodeNames(*all), (std::vector<std::string>{"n1", "n2"})) << *all;
  auto one = FetchInspect(&client_, base_url_, "n1", seconds(10));
  ASSERT_TRUE(one.ok()) << one.status().ToString();
  EXPECT_EQ(NodeNames(*one), std::vector<std::string>{"n1"}) << *one;
  nlohmann::json n1 = nlohmann::json::parse(*one)["nodes"][0];
  EXPECT_EQ(n1["memoryUnit"], "0.1");
  EXPECT_EQ(n1["totalGCU"], 32);
}

TEST_F(InspectFetchServerTest, UnknownNodeIsNotFound) {
  auto r = FetchInspect(&client_, base_url_, "n9", seconds(10));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
  EXPECT_NE(r.status().message().find("knows no GCUShare node \"n9\""),
            std::string::npos)
      << r.status().message();
  // The extender's own words are kept for the operator.
  EXPECT_NE(r.status().message().find("not a GCUShare node known"),
            std::string::npos)
      << r.status().message();
}

// Error statuses the extender does not serve on /inspect (a proxy in between
// may): a stand-in answers them.
TEST(InspectFetchTest, ErrorStatusIsReported) {
  FakeExtender extender;
  ASSERT_TRUE(extender.Start().ok());
  kube::CurlHttpClient client{kube::TlsConfig{}};
  extender.FailWith(503, "cache not synced yet\n");
  auto r = FetchInspect(&client, extender.base_url(), "", seconds(10));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(r.status().message().find("HTTP 503: cache not synced yet"),
            std::string::npos)
      << r.status().message();
  EXPECT_EQ(extender.requests(),
            std::vector<std::string>{"/gcushare-scheduler/inspect"});
}

TEST(InspectFetchTest, NoServerSaysHowToReachIt) {
  // Port 1 on loopback: nothing listens there.
  kube::CurlHttpClient client{kube::TlsConfig{}};
  auto r = FetchInspect(&client, "http://127.0.0.1:1", "", seconds(10));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(r.status().message().find("cannot reach the GCUShare extender"),
            std::string::npos)
      << r.status().message();
  EXPECT_NE(r.status().message().find("--extender-url"), std::string::npos);
}

}  // namespace
}  // namespace gcushare::kubectl_plugin
