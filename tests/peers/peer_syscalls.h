// The stand-in peers' seccomp allow-list: one broad list for all of them
// (they are test peers, not shipped): memory, threads, files, time, signals,
// polling, sockets, gRPC. Still none of ForbiddenSyscalls(), and the
// end-to-end tests fail when any of them is denied a call.
#ifndef GCUSHARE_TESTS_PEERS_PEER_SYSCALLS_H_
#define GCUSHARE_TESTS_PEERS_PEER_SYSCALLS_H_

#include "daemon/seccomp.h"

namespace gcushare::peers {

SyscallAllowList PeerSyscalls();

}  // namespace gcushare::peers

#endif  // GCUSHARE_TESTS_PEERS_PEER_SYSCALLS_H_
