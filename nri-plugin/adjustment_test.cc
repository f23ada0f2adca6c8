#include "nri-plugin/adjustment.h"

#include <gtest/gtest.h>

#include <map>

namespace gcushare::nri {
namespace {

std::map<std::string, std::string> Env(const api::ContainerAdjustment& a) {
  std::map<std::string, std::string> out;
  for (const auto& kv : a.env()) out[kv.key()] = kv.value();
  return out;
}

api::LinuxDevice Dev(const std::string& path) {
  api::LinuxDevice d;
  d.set_path(path);
  d.set_type("c");
  return d;
}

TEST(AdjustmentTest, CardPaths) {
  EXPECT_EQ(CardDevicePath(12), "/dev/gcu12");
  EXPECT_EQ(CardIndexOfPath("/dev/gcu12"), 12u);
  EXPECT_FALSE(CardIndexOfPath("/dev/gcuctl").has_value());
  EXPECT_FALSE(CardIndexOfPath("/dev/gcu").has_value());
  EXPECT_FALSE(CardIndexOfPath("/dev/gcu1a").has_value());
  EXPECT_FALSE(CardIndexOfPath("/dev/nvidia0").has_value());
}

TEST(AdjustmentTest, SharedCardWithStaleNodes) {
  AdjustmentInput in;
  in.cards.cards = {2};
  in.cards.shared = true;
  in.cards.limit_units = 40;
  in.nodes = {{"c", 238, 2, 0660}};
  in.unit = *contract::MemoryUnit::Parse("0.1");
  in.card_memory_units = 160;
  api::Container c;
  *c.mutable_linux()->add_devices() = Dev("/dev/gcu0");
  *c.mutable_linux()->add_devices() = Dev("/dev/gcu2");
  *c.mutable_linux()->add_devices() = Dev("/dev/gcuctl");
  *c.mutable_linux()->add_devices() = Dev("/dev/gcu7");
  api::ContainerAdjustment a = BuildAdjustment(in, c);
  ASSERT_EQ(a.linux().devices_size(), 3);
  EXPECT_EQ(a.linux().devices(0).path(), "-/dev/gcu0");
  EXPECT_EQ(a.linux().devices(1).path(), "-/dev/gcu7");
  const api::LinuxDevice& d = a.linux().devices(2);
  EXPECT_EQ(d.path(), "/dev/gcu2");
  EXPECT_EQ(d.type(), "c");
  EXPECT_EQ(d.major(), 238);
  EXPECT_EQ(d.minor(), 2);
  EXPECT_EQ(d.file_mode().value(), 0660u);
  auto env = Env(a);
  EXPECT_EQ(env["ENFLAME_VISIBLE_DEVICES"], "2");
  EXPECT_EQ(env["GCUSHARE_MEMORY_LIMIT_MB"], "4096");
  EXPECT_EQ(env["GCUSHARE_MEMORY_TOTAL_MB"], "16384");
  EXPECT_EQ(env["GCUSHARE_MEMORY_UNIT"], "0.1");
  EXPECT_EQ(a.env_size(), 4);
}

TEST(AdjustmentTest, WholeCardsHaveNoLimit) {
  AdjustmentInput in;
  in.cards.cards = {2, 3};
  in.nodes = {{"c", 238, 2, 0666}, {"c", 238, 3, 0666}};
  api::ContainerAdjustment a = BuildAdjustment(in, api::Container());
  ASSERT_EQ(a.linux().devices_size(), 2);
  auto env = Env(a);
  EXPECT_EQ(env["ENFLAME_VISIBLE_DEVICES"], "2,3");
  EXPECT_EQ(env.count("GCUSHARE_MEMORY_LIMIT_MB"), 0u);
  EXPECT_EQ(env.count("GCUSHARE_MEMORY_TOTAL_MB"), 0u);
  EXPECT_EQ(env["GCUSHARE_MEMORY_UNIT"], "1");
}

}  // namespace
}  // namespace gcushare::nri
