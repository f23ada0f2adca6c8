// gcushare-dra-driver's own seccomp allow-list: what it calls once confined
// (after its sockets are served). Built from daemon/syscall_groups.h.
#ifndef GCUSHARE_DRA_DRIVER_SYSCALLS_H_
#define GCUSHARE_DRA_DRIVER_SYSCALLS_H_

#include "daemon/seccomp.h"

namespace gcushare::dra {

// Runtime, log file, file reads (cards file, token, boot id), the atomic
// rewrites of the checkpoint and the per-claim CDI specs and their removal,
// the kube client, gRPC with the kubelet over unix sockets. With
// `vendor_library` (the efml card backend), any ioctl, as libefml.so calls
// undocumented ones; with `metrics_endpoint`, the HTTP server's calls.
SyscallAllowList DraDriverSyscalls(bool vendor_library,
                                   bool metrics_endpoint = false);

}  // namespace gcushare::dra

#endif  // GCUSHARE_DRA_DRIVER_SYSCALLS_H_
