// The names of DESIGN.md's contracts that users' manifests, runtimes and the
// components themselves depend on. Keep them exactly; change them only with
// the design.
#ifndef GCUSHARE_CONTRACT_NAMES_H_
#define GCUSHARE_CONTRACT_NAMES_H_

#include <string_view>

namespace gcushare::contract {

// CDI: the kind of our devices, and where the spec goes by default.
inline constexpr std::string_view kCdiVendor = "enflame.com";
inline constexpr std::string_view kCdiClass = "gcu";
inline constexpr std::string_view kCdiKind = "enflame.com/gcu";
inline constexpr std::string_view kCdiAllDevice = "all";
inline constexpr std::string_view kCdiSpecBaseName = "enflame.com-gcu";
inline constexpr std::string_view kCdiDynamicDir = "/var/run/cdi";
inline constexpr std::string_view kCdiStaticDir = "/etc/cdi";

// Environment injected into each container that asked for a card.
inline constexpr std::string_view kEnvVisibleDevices =
    "ENFLAME_VISIBLE_DEVICES";
inline constexpr std::string_view kEnvMemoryLimitMb =
    "GCUSHARE_MEMORY_LIMIT_MB";
inline constexpr std::string_view kEnvMemoryTotalMb =
    "GCUSHARE_MEMORY_TOTAL_MB";
inline constexpr std::string_view kEnvMemoryUnit = "GCUSHARE_MEMORY_UNIT";

}  // namespace gcushare::contract

#endif  // GCUSHARE_CONTRACT_NAMES_H_
