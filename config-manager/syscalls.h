// The config manager's own seccomp allow-list: what it calls once confined
// (reading and rewriting kube-scheduler's files, asking the API server for
// the extender Service), traced through its binary tests. Built from
// daemon/syscall_groups.h.
#ifndef GCUSHARE_CONFIG_MANAGER_SYSCALLS_H_
#define GCUSHARE_CONFIG_MANAGER_SYSCALLS_H_

#include "daemon/seccomp.h"

namespace gcushare::config_manager {

// Runtime, log file, file reads, atomic rewrites (and the backup
// directory), the kube client.
SyscallAllowList ConfigManagerSyscalls();

}  // namespace gcushare::config_manager

#endif  // GCUSHARE_CONFIG_MANAGER_SYSCALLS_H_
