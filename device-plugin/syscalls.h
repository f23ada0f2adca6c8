// The device plugin's own seccomp allow-list: what it calls once confined
// (after the plugin started), traced through the end-to-end tests and the
// binary tests. Built from daemon/syscall_groups.h.
#ifndef GCUSHARE_DEVICE_PLUGIN_SYSCALLS_H_
#define GCUSHARE_DEVICE_PLUGIN_SYSCALLS_H_

#include "daemon/seccomp.h"

namespace gcushare::deviceplugin {

// Runtime, log file, file reads (cards file, token), the CDI spec's atomic
// rewrite, the kube client, gRPC to and from the kubelet over unix sockets.
// With `vendor_library` (the efml card backend), also what libefml.so calls
// on the GCU driver: ioctl with requests the vendor does not document, so
// any ioctl; the fake and scan backends get no ioctl at all. With
// `metrics_endpoint` (--metrics-port), also the HTTP server's calls.
SyscallAllowList DevicePluginSyscalls(bool vendor_library,
                                      bool metrics_endpoint = false);

}  // namespace gcushare::deviceplugin

#endif  // GCUSHARE_DEVICE_PLUGIN_SYSCALLS_H_
