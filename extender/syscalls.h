// The scheduler extender's own seccomp allow-list: what it calls once
// confined (after its HTTP server listens), traced through the end-to-end
// tests and the kube client's TLS tests. Built from daemon/syscall_groups.h.
#ifndef GCUSHARE_EXTENDER_SYSCALLS_H_
#define GCUSHARE_EXTENDER_SYSCALLS_H_

#include "daemon/seccomp.h"

namespace gcushare::extender {

// Runtime, log file, file reads (token, CA), the kube client (watches,
// binds, events over libcurl), the HTTP server.
SyscallAllowList ExtenderSyscalls();

}  // namespace gcushare::extender

#endif  // GCUSHARE_EXTENDER_SYSCALLS_H_
