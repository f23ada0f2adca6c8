#include "nri-plugin/syscalls.h"

#include "daemon/syscall_groups.h"

namespace gcushare::nri {

SyscallAllowList NriPluginSyscalls(bool metrics_endpoint) {
  SyscallAllowList list = ProcessRuntimeSyscalls();
  list.Add(RotatingLogSyscalls());
  list.Add(FileReadSyscalls());
  list.Add(KubeClientSyscalls());
  list.Add(UnixClientSyscalls());
  if (metrics_endpoint) list.Add(HttpServerSyscalls());
  return list;
}

}  // namespace gcushare::nri
