#include "nri-plugin/syscalls.h"

#include "daemon/syscall_groups.h"

namespace gcushare::nri {

SyscallAllowList NriPluginSyscalls() {
  SyscallAllowList list = ProcessRuntimeSyscalls();
  list.Add(RotatingLogSyscalls());
  list.Add(FileReadSyscalls());
  list.Add(KubeClientSyscalls());
  list.Add(UnixClientSyscalls());
  return list;
}

}  // namespace gcushare::nri
