#include "dra-driver/syscalls.h"

#include "daemon/syscall_groups.h"

namespace gcushare::dra {

SyscallAllowList DraDriverSyscalls(bool vendor_library, bool metrics_endpoint) {
  SyscallAllowList list = ProcessRuntimeSyscalls();
  list.Add(RotatingLogSyscalls());
  list.Add(FileReadSyscalls());
  list.Add(AtomicFileWriteSyscalls());
  list.Add(KubeClientSyscalls());
  list.Add(GrpcUnixSyscalls());
  if (vendor_library) list.Allow("ioctl");
  if (metrics_endpoint) list.Add(HttpServerSyscalls());
  return list;
}

}  // namespace gcushare::dra
