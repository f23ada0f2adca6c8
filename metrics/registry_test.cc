#include "metrics/registry.h"

#include <gtest/gtest.h>

#include <thread>

namespace gcushare::metrics {
namespace {

TEST(RegistryTest, CounterWithLabelsRendersHelpTypeAndSamples) {
  Registry registry;
  auto& requests = registry.AddCounter("gcushare_requests_total",
                                       "Requests by verb.", {"verb"});
  requests.WithLabels({"filter"}).Increment();
  requests.WithLabels({"filter"}).Increment(2);
  requests.WithLabels({"bind"}).Increment();
  EXPECT_EQ(registry.Render(),
            "# HELP gcushare_requests_total Requests by verb.\n"
            "# TYPE gcushare_requests_total counter\n"
            "gcushare_requests_total{verb=\"bind\"} 1\n"
            "gcushare_requests_total{verb=\"filter\"} 3\n");
}

TEST(RegistryTest, HistogramBucketsAreCumulativeWithInfSumAndCount) {
  Registry registry;
  auto& latency = registry.AddHistogram("lat_seconds", "Latency.", {"verb"},
                                        {0.001, 0.01, 0.1});
  auto& filter = latency.WithLabels({"filter"});
  filter.Observe(0.0009765625);
  filter.Observe(0.001);  // On the bound: counts in le="0.001".
  filter.Observe(0.0625);
  filter.Observe(4);
  EXPECT_EQ(registry.Render(),
            "# HELP lat_seconds Latency.\n"
            "# TYPE lat_seconds histogram\n"
            "lat_seconds_bucket{verb=\"filter\",le=\"0.001\"} 2\n"
            "lat_seconds_bucket{verb=\"filter\",le=\"0.01\"} 2\n"
            "lat_seconds_bucket{verb=\"filter\",le=\"0.1\"} 3\n"
            "lat_seconds_bucket{verb=\"filter\",le=\"+Inf\"} 4\n"
            "lat_seconds_sum{verb=\"filter\"} 4.0644765625\n"
            "lat_seconds_count{verb=\"filter\"} 4\n");
}

TEST(RegistryTest, GaugeAndCollectorSamples) {
  Registry registry;
  registry.AddGauge("cache_nodes", "Nodes in the cache.").Get().Set(3);
  registry.AddCollector([](SampleWriter& w) {
    w.Reserve(1 << 20);  // A hint: changes nothing written.
    w.Family("card_used", "Used units per card.", "gauge");
    w.Sample({{"node", "n\"1"}, {"card", "0"}}, 4);
  });
  EXPECT_EQ(registry.Render(),
            "# HELP cache_nodes Nodes in the cache.\n"
            "# TYPE cache_nodes gauge\n"
            "cache_nodes 3\n"
            "# HELP card_used Used units per card.\n"
            "# TYPE card_used gauge\n"
            "card_used{node=\"n\\\"1\",card=\"0\"} 4\n");
}

TEST(RegistryTest, ConcurrentIncrementsAreNotLost) {
  Registry registry;
  auto& counter = registry.AddCounter("c", "c").Get();
  std::vector<std::thread> threads;
  threads.reserve(4);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 10000; ++i) counter.Increment();
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(counter.value(), 40000);
}

TEST(RegistryTest, FormatValue) {
  EXPECT_EQ(FormatValue(0), "0");
  EXPECT_EQ(FormatValue(1.5), "1.5");
  EXPECT_EQ(FormatValue(-2), "-2");
  EXPECT_EQ(FormatValue(0.1), "0.1");
  EXPECT_EQ(FormatValue(1e20), "1e+20");
  EXPECT_EQ(FormatValue(1.0 / 0.0), "+Inf");
}

TEST(RegistryDeathTest, DuplicateNameAborts) {
  Registry registry;
  registry.AddCounter("x", "x");
  EXPECT_DEATH(registry.AddGauge("x", "x"), "registered twice");
}

TEST(RegistryDeathTest, WrongLabelCountAborts) {
  Registry registry;
  auto& f = registry.AddCounter("x", "x", {"a"});
  EXPECT_DEATH(f.WithLabels({}), "label values");
}

}  // namespace
}  // namespace gcushare::metrics
