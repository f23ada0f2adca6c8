#include "device-plugin/flags.h"

#include <gtest/gtest.h>
#include <stdlib.h>

namespace gcushare::deviceplugin {
namespace {

// Parses `args` the way main does; the exception text when CLI11 refuses.
std::string Parse(std::vector<std::string> args, CLI::App& app,
                  CommandLine& line) {
  AddPluginFlags(app, &line);
  args.insert(args.begin(), "gcushare-device-plugin");
  std::vector<const char*> argv;
  argv.reserve(args.size());
  for (const auto& a : args) argv.push_back(a.c_str());
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::ParseError& e) {
    return e.what();
  }
  return "";
}

TEST(FlagsTest, MemoryUnitOnlyTakesTheFourUnits) {
  for (const char* good : {"1", "0.1", "0.01", "0.001"}) {
    CLI::App app;
    CommandLine line;
    EXPECT_EQ(Parse({std::string("--memory-unit=") + good, "--node-name=n"},
                    app, line),
              "");
    auto config = MakePluginConfig(app, line);
    ASSERT_TRUE(config.ok());
    EXPECT_EQ(config->unit.ToString(), good);
  }
  for (const char* bad : {"0.5", "2", "1.0", "0.0001", "", "GiB"}) {
    CLI::App app;
    CommandLine line;
    std::string error = Parse(
        {std::string("--memory-unit=") + bad, "--node-name=n"}, app, line);
    EXPECT_NE(error.find("1, 0.1, 0.01, 0.001"), std::string::npos)
        << bad << ": " << error;
  }
}

TEST(FlagsTest, DefaultsAndFakeCardsSelectTheFakeBackend) {
  CLI::App app;
  CommandLine line;
  ASSERT_EQ(Parse({"--node-name=n1", "--fake-cards=/x.yaml"}, app, line), "");
  auto config = MakePluginConfig(app, line);
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(line.cards.backend, "fake");
  EXPECT_EQ(config->node_name, "n1");
  EXPECT_EQ(config->unit.ToString(), "1");
  EXPECT_EQ(config->device_plugin_dir, "/var/lib/kubelet/device-plugins");
  EXPECT_EQ(config->cdi_dir, "/var/run/cdi");
  EXPECT_TRUE(config->device_specs);
  EXPECT_EQ(config->mode, AdvertiseModeFlag::kAuto);
}

TEST(FlagsTest, NodeNameFromTheEnvironmentOrAnError) {
  {
    CLI::App app;
    CommandLine line;
    ASSERT_EQ(Parse({"--device-specs=false", "--advertise-mode=node-status"},
                    app, line),
              "");
    ::setenv("NODE_NAME", "from-env", 1);
    auto config = MakePluginConfig(app, line);
    ::unsetenv("NODE_NAME");
    ASSERT_TRUE(config.ok());
    EXPECT_EQ(config->node_name, "from-env");
    EXPECT_FALSE(config->device_specs);
    EXPECT_EQ(config->mode, AdvertiseModeFlag::kNodeStatus);
  }
  CLI::App app;
  CommandLine line;
  ASSERT_EQ(Parse({}, app, line), "");
  auto config = MakePluginConfig(app, line);
  EXPECT_EQ(config.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(config.status().message().find("--node-name"), std::string::npos);
}

}  // namespace
}  // namespace gcushare::deviceplugin
