// Seccomp confinement: each daemon allows itself the system calls it needs
// and no others.
//
// ConfineToSyscalls() loads a filter for every thread of the process
// (thread-sync), after which any system call outside the allow-list fails
// with EPERM instead of running (clone3 fails with ENOSYS so that glibc falls
// back to clone). On x86-64 the first denial of each system call is
// reported on stderr by name ("seccomp: denied system call <name> (<nr>)"),
// through a SIGSYS handler that then fails the call with EPERM. The filter
// cannot be lifted; children inherit it. Call it once the daemon has done its
// privileged setup (opened sockets, loaded libraries), and skip it when the
// operator passed --seccomp=false.
//
// Failure: returns a Status when the kernel or libseccomp refuses the
// filter; the process is then unconfined and the caller decides whether to
// go on. Names unknown on this architecture are skipped.
#ifndef GCUSHARE_DAEMON_SECCOMP_H_
#define GCUSHARE_DAEMON_SECCOMP_H_

#include <string>
#include <vector>

#include "status/status.h"

namespace gcushare {

// What any of our processes needs to run at all: memory, threads, files,
// time, signals, polling, exit. No sockets, no exec, no mount, no ptrace.
std::vector<std::string> BaselineSyscalls();

// Sockets: unix and TCP clients and servers.
std::vector<std::string> NetworkSyscalls();

// Loads the filter; `allowed` may contain duplicates.
Status ConfineToSyscalls(const std::vector<std::string>& allowed);

}  // namespace gcushare

#endif  // GCUSHARE_DAEMON_SECCOMP_H_
