// LatestValue<T>: the latest published value of something that changes as a
// whole (a device list, a health report), and a way for any number of
// readers (e.g. open gRPC streams) to wait for the next one.
//
// Each publication gets a version 1, 2, ...; a reader remembers the version
// it handled last and waits for a newer one. Values are shared and
// immutable once published.
//
// Ownership: values are held by shared_ptr. Thread-safety: thread-safe.
// Failure: none; WaitNewer returns nullopt on timeout or after Close().
#ifndef GCUSHARE_BASE_LATEST_VALUE_H_
#define GCUSHARE_BASE_LATEST_VALUE_H_

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>

#include "base/mutex.h"
#include "base/thread_annotations.h"

namespace gcushare::base {

template <typename T>
class LatestValue {
 public:
  using Ptr = std::shared_ptr<const T>;

  struct Snapshot {
    uint64_t version = 0;  // 0: nothing published yet.
    Ptr value;
  };

  void Publish(Ptr value) {
    {
      base::MutexLock lock(mu_);
      current_.version++;
      current_.value = std::move(value);
    }
    cv_.NotifyAll();
  }

  Snapshot Current() const {
    base::MutexLock lock(mu_);
    return current_;
  }

  // The first publication newer than `after_version`, or nullopt when
  // `timeout` passes first or the value is closed.
  std::optional<Snapshot> WaitNewer(uint64_t after_version,
                                    std::chrono::milliseconds timeout) {
    base::MutexLock lock(mu_);
    bool ready = cv_.WaitFor(lock, timeout, [&]() REQUIRES(mu_) {
      return closed_ || current_.version > after_version;
    });
    if (!ready || closed_) return std::nullopt;
    return current_;
  }

  // Wakes every waiter for good (shutdown).
  void Close() {
    {
      base::MutexLock lock(mu_);
      closed_ = true;
    }
    cv_.NotifyAll();
  }

  bool closed() const {
    base::MutexLock lock(mu_);
    return closed_;
  }

 private:
  mutable Mutex mu_;
  CondVar cv_;
  Snapshot current_ GUARDED_BY(mu_);
  bool closed_ GUARDED_BY(mu_) = false;
};

}  // namespace gcushare::base

#endif  // GCUSHARE_BASE_LATEST_VALUE_H_
