#include "config-manager/service_url.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "kube/testing/fake_kube_client.h"

namespace gcushare::config_manager {
namespace {

const kube::Resource kServices{"", "v1", "services", true};

nlohmann::json Service(const std::string& name, const std::string& ip) {
  nlohmann::json service = {
      {"apiVersion", "v1"},
      {"kind", "Service"},
      {"metadata", {{"name", name}, {"namespace", "kube-system"}}},
      {"spec", {{"ports", {{{"port", 32766}}}}}}};
  if (!ip.empty()) service["spec"]["clusterIP"] = ip;
  return service;
}

TEST(ServiceUrlTest, ParsesNamespaceAndName) {
  auto ref = ParseServiceRef("kube-system/gcushare-scheduler-extender");
  ASSERT_TRUE(ref.ok());
  EXPECT_EQ(ref->first, "kube-system");
  EXPECT_EQ(ref->second, "gcushare-scheduler-extender");
  for (const char* bad : {"", "name", "/name", "ns/", "a/b/c"}) {
    auto r = ParseServiceRef(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  }
}

TEST(ServiceUrlTest, UsesTheClusterIp) {
  kube::FakeKubeClient client;
  ASSERT_TRUE(client.Seed(kServices, Service("ext", "10.96.0.50")).ok());
  ASSERT_TRUE(client.Seed(kServices, Service("v6", "fd00::12")).ok());
  auto url = ExtenderUrlFromService(&client, "kube-system", "ext", 32766);
  ASSERT_TRUE(url.ok()) << url.status().ToString();
  EXPECT_EQ(*url, "http://10.96.0.50:32766/gcushare-scheduler");
  auto v6 = ExtenderUrlFromService(&client, "kube-system", "v6", 8080);
  ASSERT_TRUE(v6.ok());
  EXPECT_EQ(*v6, "http://[fd00::12]:8080/gcushare-scheduler");
}

TEST(ServiceUrlTest, ErrorsToRetryOrReport) {
  kube::FakeKubeClient client;
  ASSERT_TRUE(client.Seed(kServices, Service("headless", "None")).ok());
  ASSERT_TRUE(client.Seed(kServices, Service("pending", "")).ok());
  auto missing = ExtenderUrlFromService(&client, "kube-system", "nope", 1);
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  auto headless = ExtenderUrlFromService(&client, "kube-system", "headless", 1);
  EXPECT_EQ(headless.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(headless.status().message().find("headless"), std::string::npos);
  auto pending = ExtenderUrlFromService(&client, "kube-system", "pending", 1);
  EXPECT_EQ(pending.status().code(), StatusCode::kFailedPrecondition);
  client.FailNext("get", UnavailableError("apiserver down"));
  auto down = ExtenderUrlFromService(&client, "kube-system", "headless", 1);
  EXPECT_EQ(down.status().code(), StatusCode::kUnavailable);
}

}  // namespace
}  // namespace gcushare::config_manager
