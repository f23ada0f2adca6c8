// The groups of system calls the daemons compose their own seccomp
// allow-lists from (extender/syscalls.cc, device-plugin/syscalls.cc,
// nri-plugin/syscalls.cc, config-manager/syscalls.cc). A group
// exists for one reason several daemons share (a library they all use, a
// file format they all write); each was derived by tracing the daemons
// (strace -f) through the end-to-end tests, the binary tests and the kube
// client's TLS tests. None names a call of ForbiddenSyscalls().
//
// Thread-safety: pure functions returning values.
#ifndef GCUSHARE_DAEMON_SYSCALL_GROUPS_H_
#define GCUSHARE_DAEMON_SYSCALL_GROUPS_H_

#include "daemon/seccomp.h"

namespace gcushare {

// Any of our processes after confinement: memory, threads (glibc reads
// /sys/devices/system/cpu/online for a new thread's arena), time, the
// shutdown signal wait, abort, exit, thread names (prctl PR_SET_NAME only).
SyscallAllowList ProcessRuntimeSyscalls();

// The rotating log file (daemon/logging.h): appends, and renames and removes
// old files when it rotates.
SyscallAllowList RotatingLogSyscalls();

// Reading files and stat-ing paths (config files, the service-account token
// and CA the kube client re-reads, device nodes).
SyscallAllowList FileReadSyscalls();

// fs::WriteFileAtomically: a temp file beside the target, fsync, fchmod,
// rename, fsync of the directory; removes stale temp files.
SyscallAllowList AtomicFileWriteSyscalls();

// kube::CurlKubeClient: libcurl over TCP, with OpenSSL and DNS resolution
// (glibc's resolver: netlink, UDP, ioctl FIONREAD), and its wake-up
// socketpair. Sockets of the families AF_INET, AF_INET6, AF_UNIX and
// AF_NETLINK only.
SyscallAllowList KubeClientSyscalls();

// An HTTP server on an already listening TCP socket (cpp-httplib): accept,
// per-connection socket options, shutdown.
SyscallAllowList HttpServerSyscalls();

// gRPC (client and server) over unix sockets, whose server socket is
// re-created when the kubelet restarts: epoll, eventfd, thread names and
// scheduling queries of its threads, bind/listen/accept4 and unlink of the
// socket file. Sockets: AF_UNIX, AF_INET, AF_INET6.
SyscallAllowList GrpcUnixSyscalls();

// A node agent that serves the kubelet over gRPC on unix sockets and keeps
// its state in files (gcushare-device-plugin, gcushare-dra-driver): the
// runtime, the rotating log, file reads, atomic file writes, the kube
// client and gRPC; with `vendor_library` (the efml card backend) any ioctl,
// as libefml.so calls undocumented ones; with `metrics_endpoint` the HTTP
// server's calls.
SyscallAllowList KubeletPluginSyscalls(bool vendor_library,
                                       bool metrics_endpoint);

// A client of a unix socket that reconnects (the NRI ttrpc connection):
// AF_UNIX sockets only.
SyscallAllowList UnixClientSyscalls();

}  // namespace gcushare

#endif  // GCUSHARE_DAEMON_SYSCALL_GROUPS_H_
