#include "tests/peers/dra_kubelet/plugin_validation.h"

#include <gtest/gtest.h>

namespace gcushare::peers::dra_kubelet {
namespace {

TEST(ChooseServiceTest, FirstSupportedInThePluginsOrder) {
  struct Case {
    std::vector<std::string> supported;
    std::string want;  // "" = refused.
  };
  const Case cases[] = {
      {{"v1.DRAPlugin", "v1beta1.DRAPlugin"}, "v1.DRAPlugin"},
      {{"v1beta1.DRAPlugin", "v1.DRAPlugin"}, "v1beta1.DRAPlugin"},
      {{"v1beta1.DRAPlugin"}, "v1beta1.DRAPlugin"},
      {{"v1alpha1.DRAResourceHealth", "v1.DRAPlugin"}, "v1.DRAPlugin"},
      {{"v1alpha4.Node", "v1beta1.DRAPlugin"}, "v1beta1.DRAPlugin"},
      {{"v1alpha4.Node"}, ""},
      {{"1.0.0"}, ""},
      {{}, ""},
  };
  for (const Case& c : cases) {
    StatusOr<std::string> chosen = ChooseService(c.supported);
    if (c.want.empty()) {
      EXPECT_EQ(chosen.status().code(), StatusCode::kInvalidArgument);
    } else {
      ASSERT_TRUE(chosen.ok()) << chosen.status();
      EXPECT_EQ(*chosen, c.want);
    }
  }
}

TEST(ChooseServiceTest, KubeletMessages) {
  EXPECT_EQ(ChooseService({}).status().message(),
            "empty list of supported gRPC services (aka supported versions)");
  EXPECT_EQ(ChooseService({"v2.DRAPlugin", "x"}).status().message(),
            "none of services supported by the plugin ([\"v2.DRAPlugin\" "
            "\"x\"]) are supported by the kubelet ([\"v1.DRAPlugin\" "
            "\"v1beta1.DRAPlugin\"])");
}

TEST(ValidatePluginInfoTest, Table) {
  struct Case {
    std::string type;
    std::string name;
    std::string endpoint;
    std::vector<std::string> versions;
    std::string want_error_part;  // "" = accepted.
  };
  const Case cases[] = {
      {"DRAPlugin",
       "gcu.enflame.com",
       "/p/dra.sock",
       {"v1.DRAPlugin", "v1alpha1.DRAResourceHealth"},
       ""},
      {"CSIPlugin",
       "gcu.enflame.com",
       "/p/dra.sock",
       {"v1.DRAPlugin"},
       "no handler registered for plugin type: CSIPlugin at socket "
       "/r/reg.sock"},
      {"DRAPlugin",
       "gcu.enflame.com",
       "/p/dra.sock",
       {"v9.DRAPlugin"},
       "invalid supported gRPC versions of DRA driver plugin gcu.enflame.com "
       "at endpoint /p/dra.sock"},
      {"DRAPlugin",
       "",
       "/p/dra.sock",
       {"v1.DRAPlugin"},
       "DRA driver name is empty"},
  };
  for (const Case& c : cases) {
    auto plugin = ValidatePluginInfo(c.type, c.name, c.endpoint, c.versions,
                                     "/r/reg.sock");
    if (c.want_error_part.empty()) {
      ASSERT_TRUE(plugin.ok()) << plugin.status();
      continue;
    }
    ASSERT_FALSE(plugin.ok()) << c.type << " " << c.name;
    EXPECT_NE(plugin.status().message().find(c.want_error_part),
              std::string::npos)
        << plugin.status();
    EXPECT_EQ(plugin.status().message().rfind("RegisterPlugin error -- ", 0),
              0u);
  }
}

TEST(ValidatePluginInfoTest, FillsTheAcceptedPlugin) {
  auto plugin = ValidatePluginInfo(
      "DRAPlugin", "gcu.enflame.com", "",
      {"v1beta1.DRAPlugin", "v1.DRAPlugin", "v1alpha1.DRAResourceHealth"},
      "/r/reg.sock");
  ASSERT_TRUE(plugin.ok()) << plugin.status();
  EXPECT_EQ(plugin->driver_name, "gcu.enflame.com");
  EXPECT_EQ(plugin->endpoint, "/r/reg.sock");  // Empty: the socket itself.
  EXPECT_EQ(plugin->chosen_service, "v1beta1.DRAPlugin");
  EXPECT_TRUE(plugin->serves_health);
  plugin = ValidatePluginInfo("DRAPlugin", "d", "/e", {"v1.DRAPlugin"}, "/r");
  ASSERT_TRUE(plugin.ok());
  EXPECT_FALSE(plugin->serves_health);
}

}  // namespace
}  // namespace gcushare::peers::dra_kubelet
