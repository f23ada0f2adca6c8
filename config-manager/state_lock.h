// StateLock: an exclusive advisory lock (flock) on <state-dir>/lock that
// orders `restore` against a running `run` on the same host.
//
// Why: `restore` (the uninstall hook) puts kube-scheduler's files back and
// leaves <state-dir>/uninstalled; a `run` still up checks that marker and
// re-applies otherwise. Without a lock, a `run` could check (no marker),
// then `restore` writes the originals and the marker, then `run` writes the
// extender back: uninstall would leave kube-scheduler calling an extender
// that is being deleted. Both hold this lock across check-and-write.
//
// Ownership: the lock is held from a successful Acquire until the object
// is destroyed (the descriptor closes). Not thread-safe; one per process.
// Failure: Acquire returns an error naming the path when the file cannot be
// opened or locked; it blocks while another process holds the lock.
#ifndef GCUSHARE_CONFIG_MANAGER_STATE_LOCK_H_
#define GCUSHARE_CONFIG_MANAGER_STATE_LOCK_H_

#include <string>

#include "status/status.h"

namespace gcushare::config_manager {

class StateLock {
 public:
  StateLock() = default;
  ~StateLock();
  StateLock(const StateLock&) = delete;
  StateLock& operator=(const StateLock&) = delete;
  StateLock(StateLock&& other) noexcept;
  StateLock& operator=(StateLock&& other) noexcept;

  // Takes the lock on `path` (created 0600 if missing), waiting while
  // another process holds it.
  static StatusOr<StateLock> Acquire(const std::string& path);
  // As Acquire, but fails with Unavailable at once when it is held.
  static StatusOr<StateLock> TryAcquire(const std::string& path);

  bool held() const { return fd_ >= 0; }

 private:
  static StatusOr<StateLock> Take(const std::string& path, bool wait);
  explicit StateLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

}  // namespace gcushare::config_manager

#endif  // GCUSHARE_CONFIG_MANAGER_STATE_LOCK_H_
