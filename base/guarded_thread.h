// GuardedThread: starts a std::thread whose body cannot end the process
// silently. An exception escaping the body would call std::terminate with
// no word of which thread died or why; a guarded body's escaping exception
// is logged (critical, with the thread's name and what()) and handed to a
// death handler instead.
//
// The default handler flushes the logs and exits the process with status
// 70 (EX_SOFTWARE): a daemon whose informer, gRPC or session thread died
// holds state that no longer moves (a stale cache can over-commit a card),
// so the consistent answer is a restart, after which every GCUShare daemon
// rebuilds its state from the API server and the node. Tests pass their own
// handler.
//
// Thread-safety: the handler runs on the dying thread; it must be safe to
// call from any thread. Ownership: the returned thread is the caller's to
// join, as with std::thread.
#ifndef GCUSHARE_BASE_GUARDED_THREAD_H_
#define GCUSHARE_BASE_GUARDED_THREAD_H_

#include <functional>
#include <string>
#include <string_view>
#include <thread>

namespace gcushare::base {

// Called with the thread's name and the exception's description.
using ThreadDeathHandler =
    std::function<void(std::string_view name, std::string_view what)>;

// Logs, flushes and exits with status 70.
void ExitForRestart(std::string_view name, std::string_view what);

// Runs `body` on a new thread named `name` (for logs; also the OS thread
// name, truncated to 15 bytes). Null `on_death`: ExitForRestart.
std::thread StartGuardedThread(std::string name, std::function<void()> body,
                               ThreadDeathHandler on_death = nullptr);

}  // namespace gcushare::base

#endif  // GCUSHARE_BASE_GUARDED_THREAD_H_
