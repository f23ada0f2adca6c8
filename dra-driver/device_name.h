// The names gcushare-dra-driver gives its ResourceSlice devices: one device
// per card, "gcu-<index>" (a DNS label, as resource.k8s.io/v1 requires), in
// the pool named after the node. The slice publisher writes these names; the
// claim preparer reads them back from a claim's allocation results.
//
// Pure functions; thread-safe; never throw.
#ifndef GCUSHARE_DRA_DRIVER_DEVICE_NAME_H_
#define GCUSHARE_DRA_DRIVER_DEVICE_NAME_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "status/status.h"

namespace gcushare::dra {

// "gcu-3" for card index 3.
std::string DeviceName(uint32_t card_index);

// The card index of "gcu-<index>" (decimal, no sign, no leading zero except
// "gcu-0", at most 4294967295); InvalidArgument naming the text otherwise.
StatusOr<uint32_t> ParseDeviceName(std::string_view name);

}  // namespace gcushare::dra

#endif  // GCUSHARE_DRA_DRIVER_DEVICE_NAME_H_
