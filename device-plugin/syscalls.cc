#include "device-plugin/syscalls.h"

#include "daemon/syscall_groups.h"

namespace gcushare::deviceplugin {

SyscallAllowList DevicePluginSyscalls(bool vendor_library,
                                      bool metrics_endpoint) {
  return KubeletPluginSyscalls(vendor_library, metrics_endpoint);
}

}  // namespace gcushare::deviceplugin
