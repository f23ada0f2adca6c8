// Plugin discovery as the kubelet's pluginwatcher does it
// (pkg/kubelet/pluginmanager/pluginwatcher): inotify on the registry
// directory; a new unix socket is announced (also every socket already
// there at Start), a removed name is announced too; names starting with '.'
// are ignored. Only the top level of the directory is watched (the kubelet
// also walks sub-directories; DRA plugins do not use them).
//
// Each announcement carries the socket's identity (inode and change time),
// so that the owner can tell a re-created socket from a second report of
// the same one (the start-up scan and an event can both see a socket).
//
// Ownership: owns its inotify descriptor and its thread; Stop() joins.
// Callbacks run on that thread, one at a time. Thread-safety: Start/Stop
// from one thread.
#ifndef GCUSHARE_TESTS_PEERS_DRA_KUBELET_REGISTRY_WATCHER_H_
#define GCUSHARE_TESTS_PEERS_DRA_KUBELET_REGISTRY_WATCHER_H_

#include <functional>
#include <string>
#include <thread>

#include "status/status.h"

namespace gcushare::peers::dra_kubelet {

class RegistryWatcher {
 public:
  struct Callbacks {
    // A socket appeared: its path and identity ("<inode>:<ctime ns>").
    std::function<void(const std::string& path, const std::string& identity)>
        added;
    // A name disappeared (or was renamed away).
    std::function<void(const std::string& path)> removed;
  };

  RegistryWatcher(std::string dir, Callbacks callbacks);
  ~RegistryWatcher();
  RegistryWatcher(const RegistryWatcher&) = delete;
  RegistryWatcher& operator=(const RegistryWatcher&) = delete;

  // Creates the watch, then reports the sockets already present and starts
  // the thread. An error when the directory cannot be watched.
  Status Start();
  void Stop();

 private:
  void Loop();
  void Report(const std::string& name);

  const std::string dir_;
  const Callbacks callbacks_;
  int inotify_fd_ = -1;
  int stop_fd_ = -1;  // eventfd
  std::thread thread_;
};

}  // namespace gcushare::peers::dra_kubelet

#endif  // GCUSHARE_TESTS_PEERS_DRA_KUBELET_REGISTRY_WATCHER_H_
