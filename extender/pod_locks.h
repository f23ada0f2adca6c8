// PodLocks: one mutex per pod key, created on demand and dropped when the
// last holder or waiter leaves, so that two binds of the same pod in one
// replica never interleave (kube-scheduler may retry a bind while the first
// call still waits on the API server).
//
// Thread-safety: all methods are safe for concurrent use. A Guard must be
// destroyed on the thread that does not otherwise hold it; it is movable
// and releases its lock when destroyed. Memory: one entry per pod with a
// bind in flight.
#ifndef GCUSHARE_EXTENDER_POD_LOCKS_H_
#define GCUSHARE_EXTENDER_POD_LOCKS_H_

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "base/mutex.h"
#include "base/thread_annotations.h"

namespace gcushare::extender {

class PodLocks {
 public:
  class Guard {
   public:
    Guard(Guard&& other) noexcept;
    Guard& operator=(Guard&&) = delete;
    Guard(const Guard&) = delete;
    ~Guard();

   private:
    friend class PodLocks;
    Guard(PodLocks* owner, std::string key);
    PodLocks* owner_;
    std::string key_;
  };

  // Blocks until no other Guard for `key` exists, then returns one.
  Guard Lock(const std::string& key);

  // How many callers hold or wait for `key` (tests observe a waiter).
  size_t Users(const std::string& key) const;

 private:
  struct Entry {
    // Held by the Guard for the key, from Lock() to Release(): a lock
    // handed out, not one guarding state, so a plain std::mutex.
    std::mutex mu;
    size_t users = 0;  // Holders and waiters. Guarded by PodLocks::mu_.
  };
  void Release(const std::string& key);

  mutable base::Mutex mu_;
  std::map<std::string, std::unique_ptr<Entry>, std::less<>> entries_
      GUARDED_BY(mu_);
};

}  // namespace gcushare::extender

#endif  // GCUSHARE_EXTENDER_POD_LOCKS_H_
