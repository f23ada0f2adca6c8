#include "tests/peers/dra_scheduler/device_selector.h"

#include <gtest/gtest.h>

namespace gcushare::dra_scheduler {
namespace {

const nlohmann::json kGcu = nlohmann::json::parse(R"({
  "name": "gcu-1",
  "allowMultipleAllocations": true,
  "attributes": {
    "uuid": {"string": "GCU-0001"},
    "index": {"int": 1},
    "model": {"string": "S60"},
    "driverVersion": {"version": "1.2.3"},
    "example.com/healthy": {"bool": true}
  },
  "capacity": {"memory": {"value": "16Gi"}}
})");

bool Match(const std::string& expression,
           const std::string& driver = "gcu.enflame.com") {
  auto selector = DeviceSelector::Compile(expression);
  EXPECT_TRUE(selector.ok()) << selector.status().message();
  if (!selector.ok()) return false;
  auto result = selector->Matches({driver, &kGcu});
  EXPECT_TRUE(result.ok()) << expression << ": " << result.status().message();
  return result.ok() && *result;
}

TEST(DeviceSelectorTest, EvaluatesTheSubset) {
  struct Case {
    const char* expression;
    bool want;
  };
  const Case cases[] = {
      {R"(device.driver == "gcu.enflame.com")", true},
      {R"(device.driver == "other.example.com")", false},
      {R"(device.driver != "other.example.com")", true},
      {R"(device.attributes["gcu.enflame.com"].model == "S60")", true},
      {R"(device.attributes["gcu.enflame.com"].model == "T20")", false},
      {R"(device.attributes["gcu.enflame.com"].index == 1)", true},
      {R"(device.attributes["gcu.enflame.com"].index >= 1)", true},
      {R"(device.attributes["gcu.enflame.com"].index > 1)", false},
      {R"(device.attributes["gcu.enflame.com"].index < 2)", true},
      {R"(device.attributes["gcu.enflame.com"].index <= 0)", false},
      {R"(device.attributes["gcu.enflame.com"].index != 1)", false},
      {R"(device.attributes["gcu.enflame.com"].index == "1")", false},
      {R"(device.attributes["example.com"].healthy == true)", true},
      {R"(device.capacity["gcu.enflame.com"].memory.compareTo(quantity("16Gi")) >= 0)",
       true},
      {R"(device.capacity["gcu.enflame.com"].memory.compareTo(quantity("16Gi")) == 0)",
       true},
      {R"(device.capacity["gcu.enflame.com"].memory.compareTo(quantity("32Gi")) >= 0)",
       false},
      {R"(device.capacity["gcu.enflame.com"].memory.compareTo(quantity("8Gi")) > 0)",
       true},
      {R"(device.capacity["gcu.enflame.com"].memory.compareTo(quantity("8Gi")) < 0)",
       false},
      {R"(device.capacity["gcu.enflame.com"].memory.compareTo(quantity("17179869184")) <= 0)",
       true},
      {R"(device.allowMultipleAllocations == true)", true},
      {R"(device.driver == "gcu.enflame.com" && device.attributes["gcu.enflame.com"].index == 1)",
       true},
      {R"((device.driver == "gcu.enflame.com") && (device.attributes["gcu.enflame.com"].index == 0))",
       false},
      {"true", true},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(Match(c.expression), c.want) << c.expression;
  }
}

TEST(DeviceSelectorTest, UnqualifiedNamesBelongToTheDriver) {
  // Another driver's device has no gcu.enflame.com attributes.
  auto selector = DeviceSelector::Compile(
      R"(device.attributes["gcu.enflame.com"].model == "S60")");
  ASSERT_TRUE(selector.ok());
  auto result = selector->Matches({"other.example.com", &kGcu});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().message(), "no such key: model");
}

TEST(DeviceSelectorTest, RuntimeErrorsFollowCel) {
  auto missing = DeviceSelector::Compile(
      R"(device.attributes["gcu.enflame.com"].numaNode == 0)");
  ASSERT_TRUE(missing.ok());
  auto result = missing->Matches({"gcu.enflame.com", &kGcu});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().message(), "no such key: numaNode");

  auto ordering = DeviceSelector::Compile(
      R"(device.attributes["gcu.enflame.com"].model > 3)");
  ASSERT_TRUE(ordering.ok());
  result = ordering->Matches({"gcu.enflame.com", &kGcu});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().message(), "no such overload: string > int");

  // false && error is false; true && error is the error.
  auto guarded = DeviceSelector::Compile(
      R"(device.driver == "x" && device.attributes["x"].y == 1)");
  ASSERT_TRUE(guarded.ok());
  result = guarded->Matches({"gcu.enflame.com", &kGcu});
  ASSERT_TRUE(result.ok());
  EXPECT_FALSE(*result);
  auto unguarded = DeviceSelector::Compile(
      R"(device.driver == "gcu.enflame.com" && device.attributes["x"].y == 1)");
  ASSERT_TRUE(unguarded.ok());
  EXPECT_FALSE(unguarded->Matches({"gcu.enflame.com", &kGcu}).ok());

  auto bad_quantity = DeviceSelector::Compile(
      R"(device.capacity["gcu.enflame.com"].memory.compareTo(quantity("16GB")) >= 0)");
  ASSERT_TRUE(bad_quantity.ok());
  EXPECT_FALSE(bad_quantity->Matches({"gcu.enflame.com", &kGcu}).ok());
}

TEST(DeviceSelectorTest, AnythingElseDoesNotCompileAndNamesTheExpression) {
  for (const char* expression :
       {"", "device.driver", R"(device.driver == "a" || true)",
        R"(device.driver.startsWith("gcu"))", R"("gcu-0" == device.name)",
        R"(device.attributes["a"] == 1)", R"(device.capacity["a"].memory >= 1)",
        R"(device.capacity["a"].memory.compareTo(quantity(1)) >= 0)",
        R"(device.driver == "unterminated)", "size(device.attributes) > 0",
        R"(device.driver == "a" &&)", R"((device.driver == "a")"}) {
    auto selector = DeviceSelector::Compile(expression);
    EXPECT_FALSE(selector.ok()) << expression;
    if (!selector.ok()) {
      EXPECT_NE(selector.status().message().find(expression), std::string::npos)
          << selector.status().message();
      EXPECT_EQ(selector.status().message().rfind("ERROR: <input>:1:", 0), 0u)
          << selector.status().message();
    }
  }
}

}  // namespace
}  // namespace gcushare::dra_scheduler
