#include "base/guarded_thread.h"

#include <pthread.h>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <exception>
#include <utility>

namespace gcushare::base {

void ExitForRestart(std::string_view name, std::string_view what) {
  spdlog::critical(
      "thread {} ended by an uncaught exception ({}); exiting with status 70 "
      "so that the daemon restarts and rebuilds its state",
      name, what);
  spdlog::default_logger()->flush();
  std::_Exit(70);
}

std::thread StartGuardedThread(std::string name, std::function<void()> body,
                               ThreadDeathHandler on_death) {
  if (!on_death) on_death = ExitForRestart;
  return std::thread([name = std::move(name), body = std::move(body),
                      on_death = std::move(on_death)] {
    // Best effort: names show in top -H and in core dumps.
    pthread_setname_np(pthread_self(), name.substr(0, 15).c_str());
    try {
      body();
    } catch (const std::exception& e) {
      on_death(name, e.what());
    } catch (...) {
      on_death(name, "an exception that is not a std::exception");
    }
  });
}

}  // namespace gcushare::base
