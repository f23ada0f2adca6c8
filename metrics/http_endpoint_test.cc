#include "metrics/http_endpoint.h"

#include <gtest/gtest.h>
#include <httplib.h>

namespace gcushare::metrics {
namespace {

TEST(HttpEndpointTest, ServesTheRegistryOverHttp) {
  Registry registry;
  registry.AddCounter("gcushare_test_total", "A test counter.")
      .Get()
      .Increment(3);
  auto endpoint = HttpEndpoint::Start(&registry, "127.0.0.1", 0);
  ASSERT_TRUE(endpoint.ok()) << endpoint.status();
  httplib::Client client("127.0.0.1", (*endpoint)->port());
  auto res = client.Get("/metrics");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200);
  EXPECT_EQ(res->get_header_value("Content-Type"), Registry::kContentType);
  EXPECT_EQ(res->body, registry.Render());
  EXPECT_NE(res->body.find("gcushare_test_total 3\n"), std::string::npos);
  auto other = client.Get("/");
  ASSERT_TRUE(other);
  EXPECT_EQ(other->status, 404);
}

TEST(HttpEndpointTest, PortZeroFromFlagsServesNothing) {
  Registry registry;
  auto endpoint = StartFromFlags(&registry, EndpointFlags{});
  ASSERT_TRUE(endpoint.ok()) << endpoint.status();
  EXPECT_EQ(*endpoint, nullptr);
}

TEST(HttpEndpointTest, AddressThatCannotBeBoundIsAnError) {
  Registry registry;
  auto endpoint = HttpEndpoint::Start(&registry, "192.0.2.1", 0);
  ASSERT_FALSE(endpoint.ok());
  EXPECT_EQ(endpoint.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(endpoint.status().message().find("cannot listen on 192.0.2.1"),
            std::string::npos)
      << endpoint.status();
}

TEST(HttpEndpointTest, FlagsParse) {
  CLI::App app;
  EndpointFlags flags;
  AddEndpointFlags(app, &flags);
  EXPECT_EQ(flags.address, "0.0.0.0");
  const char* argv[] = {"x", "--metrics-port=9400",
                        "--metrics-address=127.0.0.1"};
  app.parse(3, argv);
  EXPECT_EQ(flags.port, 9400);
  EXPECT_EQ(flags.address, "127.0.0.1");
  CLI::App bad;
  EndpointFlags other;
  AddEndpointFlags(bad, &other);
  const char* too_big[] = {"x", "--metrics-port=70000"};
  EXPECT_THROW(bad.parse(2, too_big), CLI::ValidationError);
}

}  // namespace
}  // namespace gcushare::metrics
