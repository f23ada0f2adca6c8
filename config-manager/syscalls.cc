#include "config-manager/syscalls.h"

#include "daemon/syscall_groups.h"

namespace gcushare::config_manager {

SyscallAllowList ConfigManagerSyscalls() {
  SyscallAllowList list = ProcessRuntimeSyscalls();
  list.Add(RotatingLogSyscalls());
  list.Add(FileReadSyscalls());
  list.Add(AtomicFileWriteSyscalls());
  list.Add(KubeClientSyscalls());
  return list;
}

}  // namespace gcushare::config_manager
