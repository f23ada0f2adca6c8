// NRI protocol names and event masks (docs/protocols.md 4.2, 4.3), shared by
// the plugin and the stand-in runtime.
#ifndef GCUSHARE_NRI_PLUGIN_PROTOCOL_H_
#define GCUSHARE_NRI_PLUGIN_PROTOCOL_H_

#include <cstdint>
#include <initializer_list>
#include <string_view>

#include "nri-plugin/api/api.pb.h"

namespace gcushare::nri {

namespace api = ::nri::pkg::api::v1alpha1;

inline constexpr std::string_view kPluginService =
    "nri.pkg.api.v1alpha1.Plugin";
inline constexpr std::string_view kRuntimeService =
    "nri.pkg.api.v1alpha1.Runtime";

// Valid subscription bits: events 1..11 before NRI v0.10 (containerd 1.7,
// 2.0, 2.1), 1..14 from v0.10.
inline constexpr int32_t kValidEventsBeforeV010 = 0x7FF;
inline constexpr int32_t kValidEventsV010 = 0x3FFF;

// Bit 1 << (event - 1) per event.
constexpr int32_t EventBit(api::Event event) {
  return event <= api::UNKNOWN ? 0 : int32_t{1} << (event - 1);
}
constexpr int32_t EventMask(std::initializer_list<api::Event> events) {
  int32_t mask = 0;
  for (api::Event e : events) mask |= EventBit(e);
  return mask;
}

// containerd's registration check: name [A-Za-z0-9_.+-]+, index exactly
// two digits.
bool ValidPluginName(std::string_view name);
bool ValidPluginIndex(std::string_view index);

}  // namespace gcushare::nri

#endif  // GCUSHARE_NRI_PLUGIN_PROTOCOL_H_
