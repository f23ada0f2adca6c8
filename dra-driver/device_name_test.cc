#include "dra-driver/device_name.h"

#include <gtest/gtest.h>

namespace gcushare::dra {
namespace {

TEST(DeviceNameTest, RoundTrips) {
  for (uint32_t index : {0u, 1u, 7u, 10u, 4294967295u}) {
    StatusOr<uint32_t> parsed = ParseDeviceName(DeviceName(index));
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    EXPECT_EQ(*parsed, index);
  }
  EXPECT_EQ(DeviceName(3), "gcu-3");
}

TEST(DeviceNameTest, RefusesOtherNames) {
  for (std::string_view bad :
       {"", "gcu-", "gcu3", "GCU-3", "gcu-03", "gcu--3", "gcu-3a", "gcu- 3",
        "gcu-4294967296", "gcu-99999999999", "gpu-0"}) {
    StatusOr<uint32_t> parsed = ParseDeviceName(bad);
    EXPECT_FALSE(parsed.ok()) << bad;
    if (!parsed.ok()) {
      EXPECT_NE(parsed.status().message().find("gcu-<card index>"),
                std::string::npos);
    }
  }
}

}  // namespace
}  // namespace gcushare::dra
