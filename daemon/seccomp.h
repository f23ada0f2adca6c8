// Seccomp confinement: each daemon allows itself the system calls it needs
// and no others. Each daemon composes its own SyscallAllowList (in its
// syscalls.cc, from the groups of daemon/syscall_groups.h).
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

#include <cstdint>
#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "status/status.h"

namespace gcushare {

// A set of allowed system calls: some with any arguments, some only when
// one argument (by index) is one of a few values, e.g. ioctl(fd, FIONREAD).
// A value type; not thread-safe to mutate concurrently.
class SyscallAllowList {
 public:
  SyscallAllowList() = default;
  SyscallAllowList(std::initializer_list<const char*> names);

  // Allows `name` with any arguments.
  SyscallAllowList& Allow(const std::string& name);
  // Allows `name` when its argument `arg_index` equals `value` (repeat for
  // more values; any one matching allows the call). Moot when `name` is
  // allowed with any arguments.
  SyscallAllowList& AllowWithArg(const std::string& name, unsigned arg_index,
                                 uint64_t value);
  // Adds every call of `group`.
  SyscallAllowList& Add(const SyscallAllowList& group);

  // True when `name` is allowed with any arguments.
  bool AllowsAnyArgs(const std::string& name) const;
  // True when `name` is allowed at all (perhaps only for some arguments).
  bool Allows(const std::string& name) const;
  // True when `name` is allowed with argument `arg_index` == `value`.
  bool AllowsArg(const std::string& name, unsigned arg_index,
                 uint64_t value) const;
  // Number of distinct system calls allowed.
  size_t size() const;

  // (argument index, value) pairs.
  using ArgValues = std::set<std::pair<unsigned, uint64_t>>;
  const std::set<std::string>& any_args() const { return any_args_; }
  const std::map<std::string, ArgValues>& narrowed() const { return narrowed_; }

 private:
  std::set<std::string> any_args_;
  std::map<std::string, ArgValues> narrowed_;
};

// System calls no daemon may allow: exec, ptrace, mount, module loading,
// namespaces, reboot and the like. ConfineToSyscalls refuses a list with any
// of them.
std::vector<std::string> ForbiddenSyscalls();

// Loads the filter. InvalidArgument (and nothing loaded) when `allowed`
// names a forbidden call.
Status ConfineToSyscalls(const SyscallAllowList& allowed);

}  // namespace gcushare

#endif  // GCUSHARE_DAEMON_SECCOMP_H_
