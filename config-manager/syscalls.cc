#include "config-manager/syscalls.h"

#include "daemon/syscall_groups.h"

namespace gcushare::config_manager {

SyscallAllowList ConfigManagerSyscalls() {
  SyscallAllowList list = ProcessRuntimeSyscalls();
  list.Add(RotatingLogSyscalls());
  list.Add(FileReadSyscalls());
  list.Add(AtomicFileWriteSyscalls());
  list.Add(KubeClientSyscalls());
  list.Add({"flock"});  // StateLock orders `restore` against `run`.
  return list;
}

}  // namespace gcushare::config_manager
