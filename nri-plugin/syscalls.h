// The NRI plugin's own seccomp allow-list: what it calls once confined
// (after it loaded its configuration), traced through the end-to-end tests
// and the binary tests. Built from daemon/syscall_groups.h.
#ifndef GCUSHARE_NRI_PLUGIN_SYSCALLS_H_
#define GCUSHARE_NRI_PLUGIN_SYSCALLS_H_

#include "daemon/seccomp.h"

namespace gcushare::nri {

// Runtime, log file, file reads (stat of device nodes under --dev-root,
// token), the kube client, the ttrpc connection to containerd (reconnects
// after a runtime restart).
// With `metrics_endpoint` (--metrics-port), also the HTTP server's calls.
SyscallAllowList NriPluginSyscalls(bool metrics_endpoint = false);

}  // namespace gcushare::nri

#endif  // GCUSHARE_NRI_PLUGIN_SYSCALLS_H_
