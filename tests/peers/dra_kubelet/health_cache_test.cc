#include "tests/peers/dra_kubelet/health_cache.h"

#include <gtest/gtest.h>

#include "base/testing/fake_clock.h"

namespace gcushare::peers::dra_kubelet {
namespace {

using std::chrono::seconds;

DeviceHealthReport Report(std::string device, DeviceHealthStatus health,
                          int64_t timeout_seconds = 0) {
  DeviceHealthReport report;
  report.pool_name = "node-1";
  report.device_name = std::move(device);
  report.health = health;
  report.health_check_timeout_seconds = timeout_seconds;
  report.message = "m-" + report.device_name;
  return report;
}

TEST(HealthCacheTest, UnknownUntilReportedThenTheReport) {
  base::FakeClock clock;
  HealthCache cache(&clock);
  EXPECT_EQ(cache.Get("d", "node-1", "gcu-0").health,
            DeviceHealthStatus::kUnknown);
  cache.Update("d", {Report("gcu-0", DeviceHealthStatus::kHealthy),
                     Report("gcu-1", DeviceHealthStatus::kUnhealthy)});
  EXPECT_EQ(cache.Get("d", "node-1", "gcu-0").health,
            DeviceHealthStatus::kHealthy);
  EXPECT_EQ(cache.Get("d", "node-1", "gcu-1").health,
            DeviceHealthStatus::kUnhealthy);
  EXPECT_EQ(cache.Get("d", "node-1", "gcu-1").message, "m-gcu-1");
  EXPECT_EQ(cache.Get("other", "node-1", "gcu-0").health,
            DeviceHealthStatus::kUnknown);
}

TEST(HealthCacheTest, TimeoutTurnsUnknownDefault30sOrThePluginsValue) {
  struct Case {
    int64_t timeout_seconds;
    int64_t fresh_until;  // Seconds after the report still fresh.
  };
  const Case cases[] = {{0, 30}, {-5, 30}, {10, 10}, {90, 90}};
  for (const Case& c : cases) {
    base::FakeClock clock;
    HealthCache cache(&clock);
    cache.Update("d", {Report("gcu-0", DeviceHealthStatus::kHealthy,
                              c.timeout_seconds)});
    clock.Advance(seconds(c.fresh_until));
    EXPECT_EQ(cache.Get("d", "node-1", "gcu-0").health,
              DeviceHealthStatus::kHealthy)
        << c.timeout_seconds;
    clock.Advance(seconds(1));
    EXPECT_EQ(cache.Get("d", "node-1", "gcu-0").health,
              DeviceHealthStatus::kUnknown)
        << c.timeout_seconds;
    EXPECT_EQ(cache.Get("d", "node-1", "gcu-0").message, "");
  }
}

TEST(HealthCacheTest, RefreshKeepsFreshAndLeftOutDevicesAge) {
  base::FakeClock clock;
  HealthCache cache(&clock);
  cache.Update("d", {Report("gcu-0", DeviceHealthStatus::kHealthy),
                     Report("gcu-1", DeviceHealthStatus::kHealthy)});
  clock.Advance(seconds(20));
  cache.Update("d", {Report("gcu-0", DeviceHealthStatus::kHealthy)});
  clock.Advance(seconds(20));
  EXPECT_EQ(cache.Get("d", "node-1", "gcu-0").health,
            DeviceHealthStatus::kHealthy);
  EXPECT_EQ(cache.Get("d", "node-1", "gcu-1").health,
            DeviceHealthStatus::kUnknown);
}

TEST(HealthCacheTest, ClearDriverForgets) {
  base::FakeClock clock;
  HealthCache cache(&clock);
  cache.Update("d", {Report("gcu-0", DeviceHealthStatus::kHealthy)});
  cache.Update("e", {Report("gcu-0", DeviceHealthStatus::kHealthy)});
  cache.ClearDriver("d");
  EXPECT_EQ(cache.Get("d", "node-1", "gcu-0").health,
            DeviceHealthStatus::kUnknown);
  EXPECT_EQ(cache.Get("e", "node-1", "gcu-0").health,
            DeviceHealthStatus::kHealthy);
  EXPECT_STREQ(HealthName(DeviceHealthStatus::kUnhealthy), "Unhealthy");
}

}  // namespace
}  // namespace gcushare::peers::dra_kubelet
