// Fuzzes device plugin device IDs ("<card base 36>-<unit base 36>", as
// the kubelet hands them back in Allocate): an ID that parses must be
// exactly what DeviceId() prints for it.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "device-plugin/device_ids.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view id(reinterpret_cast<const char*>(data), size);
  gcushare::StatusOr<gcushare::deviceplugin::ParsedDeviceId> parsed =
      gcushare::deviceplugin::ParseDeviceId(id);
  if (!parsed.ok()) return 0;
  if (gcushare::deviceplugin::DeviceId(parsed->card, parsed->unit) != id) {
    __builtin_trap();
  }
  return 0;
}
