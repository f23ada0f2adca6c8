#include "contract/container_env.h"

#include <gtest/gtest.h>

namespace gcushare::contract {
namespace {

using Env = std::vector<std::pair<std::string, std::string>>;

TEST(ContainerEnvTest, SharedCard) {
  ContainerEnv env;
  env.cards = {2};
  env.memory_limit_mib = 4096;
  env.memory_total_mib = 16384;
  env.unit = *MemoryUnit::Parse("0.1");
  EXPECT_EQ(EncodeContainerEnv(env), (Env{{"ENFLAME_VISIBLE_DEVICES", "2"},
                                          {"GCUSHARE_MEMORY_LIMIT_MB", "4096"},
                                          {"GCUSHARE_MEMORY_TOTAL_MB", "16384"},
                                          {"GCUSHARE_MEMORY_UNIT", "0.1"}}));
}

TEST(ContainerEnvTest, WholeCardsLeaveTheLimitOut) {
  ContainerEnv env;
  env.cards = {0, 3};
  EXPECT_EQ(EncodeContainerEnv(env), (Env{{"ENFLAME_VISIBLE_DEVICES", "0,3"},
                                          {"GCUSHARE_MEMORY_UNIT", "1"}}));
}

}  // namespace
}  // namespace gcushare::contract
