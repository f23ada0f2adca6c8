#include "contract/container_env.h"

#include "contract/annotations.h"
#include "contract/names.h"

namespace gcushare::contract {

std::pair<std::string, std::string> VisibleDevicesEnv(
    const std::vector<uint32_t>& cards) {
  return {std::string(kEnvVisibleDevices), JoinCardList(cards)};
}

std::vector<std::pair<std::string, std::string>> EncodeContainerEnv(
    const ContainerEnv& env) {
  std::vector<std::pair<std::string, std::string>> out;
  out.push_back(VisibleDevicesEnv(env.cards));
  if (env.memory_limit_mib.has_value()) {
    out.emplace_back(kEnvMemoryLimitMb, std::to_string(*env.memory_limit_mib));
  }
  if (env.memory_total_mib.has_value()) {
    out.emplace_back(kEnvMemoryTotalMb, std::to_string(*env.memory_total_mib));
  }
  out.emplace_back(kEnvMemoryUnit, env.unit.ToString());
  return out;
}

}  // namespace gcushare::contract
