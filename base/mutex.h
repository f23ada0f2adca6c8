// Annotated locking primitives (base/thread_annotations.h): what guarded
// state is locked with, so clang's -Wthread-safety checks every access.
//
//   base::Mutex mu_;
//   int count_ GUARDED_BY(mu_) = 0;
//   void Add() { base::MutexLock lock(mu_); ++count_; }
//
// Mutex wraps std::mutex (same behaviour, same cost); SharedMutex wraps
// std::shared_mutex for reader/writer locking. MutexLock, ReaderMutexLock and
// WriterMutexLock hold a lock for a scope (MutexLock may be released and
// retaken inside it). CondVar is std::condition_variable for a MutexLock:
// predicates that read guarded state are lambdas annotated REQUIRES(mu_),
//
//   cv_.Wait(lock, [this]() REQUIRES(mu_) { return stop_ || !queue_.empty();
//   });
//
// Mutex also has lock()/unlock()/try_lock(), so std::condition_variable_any
// and std::scoped_lock work with it (unchecked: prefer the classes here).
//
// Ownership: each lock object borrows its mutex, which must outlive it.
// Thread-safety: the mutexes and CondVar are for use from many threads; a
// lock object belongs to the thread that made it. Misuse (unlocking what is
// not held, relocking a held Mutex) is undefined, as with std::mutex; the
// clang build rejects it where it can see it.
#ifndef GCUSHARE_BASE_MUTEX_H_
#define GCUSHARE_BASE_MUTEX_H_

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <shared_mutex>

#include "base/thread_annotations.h"

namespace gcushare::base {

class CondVar;

class CAPABILITY("mutex") Mutex {
 public:
  Mutex() = default;
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void Lock() ACQUIRE() { mu_.lock(); }
  void Unlock() RELEASE() { mu_.unlock(); }
  bool TryLock() TRY_ACQUIRE(true) { return mu_.try_lock(); }

  // Tells the analysis that the caller holds this mutex (where it cannot
  // see it, e.g. in a callback run under the lock). Checks nothing at run
  // time.
  void AssertHeld() const ASSERT_CAPABILITY(this) {}

  // BasicLockable / Lockable, for the standard library's generic lockers.
  void lock() ACQUIRE() { mu_.lock(); }
  void unlock() RELEASE() { mu_.unlock(); }
  bool try_lock() TRY_ACQUIRE(true) { return mu_.try_lock(); }

 private:
  friend class CondVar;
  std::mutex mu_;
};

class CAPABILITY("shared_mutex") SharedMutex {
 public:
  SharedMutex() = default;
  SharedMutex(const SharedMutex&) = delete;
  SharedMutex& operator=(const SharedMutex&) = delete;

  void Lock() ACQUIRE() { mu_.lock(); }
  void Unlock() RELEASE() { mu_.unlock(); }
  void ReaderLock() ACQUIRE_SHARED() { mu_.lock_shared(); }
  void ReaderUnlock() RELEASE_SHARED() { mu_.unlock_shared(); }
  bool TryLock() TRY_ACQUIRE(true) { return mu_.try_lock(); }
  bool ReaderTryLock() TRY_ACQUIRE_SHARED(true) {
    return mu_.try_lock_shared();
  }

  void AssertHeld() const ASSERT_CAPABILITY(this) {}
  void AssertReaderHeld() const ASSERT_SHARED_CAPABILITY(this) {}

  // Lockable / SharedLockable, for the standard library's generic lockers.
  void lock() ACQUIRE() { mu_.lock(); }
  void unlock() RELEASE() { mu_.unlock(); }
  void lock_shared() ACQUIRE_SHARED() { mu_.lock_shared(); }
  void unlock_shared() RELEASE_SHARED() { mu_.unlock_shared(); }

 private:
  std::shared_mutex mu_;
};

// Holds `mu` from construction to destruction, except between Unlock() and
// the following Lock().
class SCOPED_CAPABILITY MutexLock {
 public:
  explicit MutexLock(Mutex& mu) ACQUIRE(mu) : mu_(mu) { mu_.Lock(); }
  ~MutexLock() RELEASE() {
    if (held_) mu_.Unlock();
  }
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

  // Releases early (e.g. to run a callback unlocked); Lock() takes it again.
  void Unlock() RELEASE() {
    mu_.Unlock();
    held_ = false;
  }
  void Lock() ACQUIRE() {
    mu_.Lock();
    held_ = true;
  }

 private:
  friend class CondVar;
  Mutex& mu_;
  bool held_ = true;
};

// Holds `mu` shared from construction to destruction.
class SCOPED_CAPABILITY ReaderMutexLock {
 public:
  explicit ReaderMutexLock(SharedMutex& mu) ACQUIRE_SHARED(mu) : mu_(mu) {
    mu_.ReaderLock();
  }
  ~ReaderMutexLock() RELEASE() { mu_.ReaderUnlock(); }
  ReaderMutexLock(const ReaderMutexLock&) = delete;
  ReaderMutexLock& operator=(const ReaderMutexLock&) = delete;

 private:
  SharedMutex& mu_;
};

// Holds `mu` exclusively from construction to destruction.
class SCOPED_CAPABILITY WriterMutexLock {
 public:
  explicit WriterMutexLock(SharedMutex& mu) ACQUIRE(mu) : mu_(mu) {
    mu_.Lock();
  }
  ~WriterMutexLock() RELEASE() { mu_.Unlock(); }
  WriterMutexLock(const WriterMutexLock&) = delete;
  WriterMutexLock& operator=(const WriterMutexLock&) = delete;

 private:
  SharedMutex& mu_;
};

// std::condition_variable for a held MutexLock. Each wait releases the
// lock's mutex while it blocks and holds it again when it returns; waits
// may wake spuriously unless given a predicate. Timeouts are real time
// (steady clock), as std::condition_variable's.
class CondVar {
 public:
  CondVar() = default;
  CondVar(const CondVar&) = delete;
  CondVar& operator=(const CondVar&) = delete;

  void NotifyOne() { cv_.notify_one(); }
  void NotifyAll() { cv_.notify_all(); }

  // The analysis cannot follow the mutex through std::condition_variable:
  // the waits are opted out, and the lock is held on entry and on return.
  void Wait(MutexLock& lock) NO_THREAD_SAFETY_ANALYSIS {
    std::unique_lock<std::mutex> native(lock.mu_.mu_, std::adopt_lock);
    cv_.wait(native);
    native.release();
  }

  // Waits until `pred()` is true (checked under the lock).
  template <typename Predicate>
  void Wait(MutexLock& lock, Predicate pred) NO_THREAD_SAFETY_ANALYSIS {
    std::unique_lock<std::mutex> native(lock.mu_.mu_, std::adopt_lock);
    cv_.wait(native, pred);
    native.release();
  }

  // Returns false when `timeout` passed without a notification.
  template <typename Rep, typename Period>
  bool WaitFor(MutexLock& lock, std::chrono::duration<Rep, Period> timeout)
      NO_THREAD_SAFETY_ANALYSIS {
    std::unique_lock<std::mutex> native(lock.mu_.mu_, std::adopt_lock);
    const bool notified =
        cv_.wait_for(native, timeout) == std::cv_status::no_timeout;
    native.release();
    return notified;
  }

  // Waits until `pred()` or `timeout`; returns `pred()`'s last value.
  template <typename Rep, typename Period, typename Predicate>
  bool WaitFor(MutexLock& lock, std::chrono::duration<Rep, Period> timeout,
               Predicate pred) NO_THREAD_SAFETY_ANALYSIS {
    std::unique_lock<std::mutex> native(lock.mu_.mu_, std::adopt_lock);
    const bool result = cv_.wait_for(native, timeout, pred);
    native.release();
    return result;
  }

  // Waits until `pred()` or `deadline`; returns `pred()`'s last value.
  template <typename Clock, typename Duration, typename Predicate>
  bool WaitUntil(MutexLock& lock,
                 std::chrono::time_point<Clock, Duration> deadline,
                 Predicate pred) NO_THREAD_SAFETY_ANALYSIS {
    std::unique_lock<std::mutex> native(lock.mu_.mu_, std::adopt_lock);
    const bool result = cv_.wait_until(native, deadline, pred);
    native.release();
    return result;
  }

 private:
  std::condition_variable cv_;
};

}  // namespace gcushare::base

#endif  // GCUSHARE_BASE_MUTEX_H_
