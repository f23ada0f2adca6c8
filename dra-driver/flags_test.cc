#include "dra-driver/flags.h"

#include <gtest/gtest.h>

#include <vector>

namespace gcushare::dra {
namespace {

struct Parsed {
  Status parse;
  StatusOr<DriverConfig> config = InternalError("not made");
  CommandLine line;
};

Parsed Parse(const std::vector<std::string>& args) {
  Parsed out;
  CLI::App app;
  AddDriverFlags(app, &out.line);
  std::vector<const char*> argv{"gcushare-dra-driver"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::ParseError& e) {
    out.parse = InvalidArgumentError(e.what());
    return out;
  }
  out.config = MakeDriverConfig(app, out.line);
  return out;
}

TEST(DraFlagsTest, Defaults) {
  Parsed p = Parse({"--node-name=n1"});
  ASSERT_TRUE(p.parse.ok());
  ASSERT_TRUE(p.config.ok()) << p.config.status();
  EXPECT_EQ(p.config->node_name, "n1");
  EXPECT_EQ(p.config->paths.service_socket,
            "/var/lib/kubelet/plugins/gcu.enflame.com/dra.sock");
  EXPECT_EQ(p.config->paths.registration_socket,
            "/var/lib/kubelet/plugins_registry/gcu.enflame.com-reg.sock");
  EXPECT_EQ(p.config->cdi_dir, "/var/run/cdi");
  EXPECT_EQ(p.config->unit.ToString(), "1");
  EXPECT_TRUE(p.config->consumable_capacity);
  EXPECT_EQ(p.line.cards.backend, "auto");
}

TEST(DraFlagsTest, FakeCardsSelectTheFakeBackend) {
  Parsed p =
      Parse({"--node-name=n1", "--fake-cards=/tmp/c.yaml", "--memory-unit=0.1",
             "--kubelet-root=/data/k", "--consumable-capacity=false"});
  ASSERT_TRUE(p.config.ok()) << p.config.status();
  EXPECT_EQ(p.line.cards.backend, "fake");
  EXPECT_EQ(p.config->unit.ToString(), "0.1");
  EXPECT_EQ(p.config->paths.plugin_dir, "/data/k/plugins/gcu.enflame.com");
  EXPECT_FALSE(p.config->consumable_capacity);
}

TEST(DraFlagsTest, RefusesBadValues) {
  EXPECT_FALSE(Parse({"--node-name=n1", "--memory-unit=2"}).parse.ok());
  EXPECT_FALSE(Parse({"--node-name=n1", "--efml-backend=gpu"}).parse.ok());
  Parsed relative = Parse({"--node-name=n1", "--cdi-dir=run/cdi"});
  ASSERT_TRUE(relative.parse.ok());
  ASSERT_FALSE(relative.config.ok());
  EXPECT_NE(relative.config.status().message().find("--cdi-dir"),
            std::string::npos);
}

}  // namespace
}  // namespace gcushare::dra
