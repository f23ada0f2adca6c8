// ContainerEnv: the environment of a container that asked for cards
// (docs/contracts.md "Container environment"), with its one encoder. Two
// components write it, the device plugin (Allocate's envs) and the NRI
// plugin (the container adjustment), so the names and value forms live here.
//
// Pure function; thread-compatible value type.
#ifndef GCUSHARE_CONTRACT_CONTAINER_ENV_H_
#define GCUSHARE_CONTRACT_CONTAINER_ENV_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "contract/memory_unit.h"

namespace gcushare::contract {

struct ContainerEnv {
  std::vector<uint32_t> cards;               // ENFLAME_VISIBLE_DEVICES
  std::optional<uint64_t> memory_limit_mib;  // GCUSHARE_MEMORY_LIMIT_MB
  std::optional<uint64_t> memory_total_mib;  // GCUSHARE_MEMORY_TOTAL_MB
  MemoryUnit unit;                           // GCUSHARE_MEMORY_UNIT
};

// ENFLAME_VISIBLE_DEVICES for `cards` ("0", "2,3"): name and value. Also
// what the CDI specs' devices set (cdi/builder.cc).
std::pair<std::string, std::string> VisibleDevicesEnv(
    const std::vector<uint32_t>& cards);

// Name and value of each variable, in the order above; an unset optional
// is left out.
std::vector<std::pair<std::string, std::string>> EncodeContainerEnv(
    const ContainerEnv& env);

}  // namespace gcushare::contract

#endif  // GCUSHARE_CONTRACT_CONTAINER_ENV_H_
