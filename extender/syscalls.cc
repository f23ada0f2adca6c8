#include "extender/syscalls.h"

#include "daemon/syscall_groups.h"

namespace gcushare::extender {

SyscallAllowList ExtenderSyscalls() {
  SyscallAllowList list = ProcessRuntimeSyscalls();
  list.Add(RotatingLogSyscalls());
  list.Add(FileReadSyscalls());
  list.Add(KubeClientSyscalls());
  list.Add(HttpServerSyscalls());
  return list;
}

}  // namespace gcushare::extender
