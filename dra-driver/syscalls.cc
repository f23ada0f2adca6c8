#include "dra-driver/syscalls.h"

#include "daemon/syscall_groups.h"

namespace gcushare::dra {

SyscallAllowList DraDriverSyscalls(bool vendor_library, bool metrics_endpoint) {
  return KubeletPluginSyscalls(vendor_library, metrics_endpoint);
}

}  // namespace gcushare::dra
