#include "kubectl-plugin/inspect_fetch.h"

#include <gtest/gtest.h>

#include "kube/curl_http_client.h"
#include "kubectl-plugin/fake_extender.h"

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

class InspectFetchServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(extender_.Start().ok());
    extender_.SetNodes(R"({"nodes":[{"name":"n1","memoryUnit":"1"}]})");
  }
  FakeExtender extender_;
  kube::CurlHttpClient client_{kube::TlsConfig{}};
};

TEST_F(InspectFetchServerTest, GetsAllAndOneNode) {
  auto all = FetchInspect(&client_, extender_.base_url(), "", seconds(10));
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  EXPECT_EQ(*all, R"({"nodes":[{"name":"n1","memoryUnit":"1"}]})");
  auto one = FetchInspect(&client_, extender_.base_url(), "n1", seconds(10));
  ASSERT_TRUE(one.ok()) << one.status().ToString();
  EXPECT_EQ(*one, R"({"nodes":[{"memoryUnit":"1","name":"n1"}]})");
  EXPECT_EQ(extender_.requests(),
            (std::vector<std::string>{"/gcushare-scheduler/inspect",
                                      "/gcushare-scheduler/inspect/n1"}));
}

TEST_F(InspectFetchServerTest, UnknownNodeIsNotFound) {
  auto r = FetchInspect(&client_, extender_.base_url(), "n9", seconds(10));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
  EXPECT_NE(r.status().message().find("knows no GCUShare node \"n9\""),
            std::string::npos)
      << r.status().message();
}

TEST_F(InspectFetchServerTest, ErrorStatusIsReported) {
  extender_.FailWith(503, "cache not synced yet\n");
  auto r = FetchInspect(&client_, extender_.base_url(), "", seconds(10));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(r.status().message().find("HTTP 503: cache not synced yet"),
            std::string::npos)
      << r.status().message();
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
