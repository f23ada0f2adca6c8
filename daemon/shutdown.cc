#include "daemon/shutdown.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include "base/guarded_thread.h"
#include "base/mutex.h"
#include "base/thread_annotations.h"

namespace gcushare {
namespace {

sigset_t ShutdownSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  return set;
}

}  // namespace

ShutdownSignal::ShutdownSignal() {
  sigset_t set = ShutdownSignals();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  waiter_ = base::StartGuardedThread("shutdown waiter", [this] { Run(); });
}

ShutdownSignal::~ShutdownSignal() {
  {
    base::MutexLock lock(mu_);
    stopping_ = true;
  }
  // Wake sigwait() with a signal aimed at the waiter thread only (it has
  // SIGTERM blocked and waits for it: the signal is read, never delivered).
  // NOLINTNEXTLINE(bugprone-bad-signal-to-kill-thread)
  pthread_kill(waiter_.native_handle(), SIGTERM);
  waiter_.join();
}

void ShutdownSignal::Run() {
  sigset_t set = ShutdownSignals();
  for (;;) {
    int signo = 0;
    if (sigwait(&set, &signo) != 0) continue;
    {
      base::MutexLock lock(mu_);
      if (stopping_) return;
      if (requested_) {
        // Second signal: the operator wants the process gone now.
        static const char kMsg[] = "second signal: exiting immediately\n";
        (void)!write(STDERR_FILENO, kMsg, sizeof(kMsg) - 1);
        _exit(128 + signo);
      }
    }
    Fire(signo);
  }
}

void ShutdownSignal::Fire(int signo) {
  std::vector<std::function<void()>> callbacks;
  {
    base::MutexLock lock(mu_);
    if (requested_) return;
    requested_ = true;
    signo_ = signo;
    callbacks.swap(callbacks_);
  }
  // Waiters wake only after the callbacks ran, so that code after Wait()
  // sees their effects (servers stopped, state flushed).
  for (auto& callback : callbacks) callback();
  {
    base::MutexLock lock(mu_);
    callbacks_done_ = true;
  }
  cv_.NotifyAll();
}

void ShutdownSignal::OnShutdown(std::function<void()> callback) {
  {
    base::MutexLock lock(mu_);
    if (!requested_) {
      callbacks_.push_back(std::move(callback));
      return;
    }
  }
  callback();
}

void ShutdownSignal::Trigger() { Fire(0); }

bool ShutdownSignal::Requested() const {
  base::MutexLock lock(mu_);
  return requested_;
}

int ShutdownSignal::SignalNumber() const {
  base::MutexLock lock(mu_);
  return signo_;
}

void ShutdownSignal::Wait() {
  base::MutexLock lock(mu_);
  cv_.Wait(lock, [this]() REQUIRES(mu_) { return callbacks_done_; });
}

bool ShutdownSignal::WaitFor(std::chrono::milliseconds timeout) {
  base::MutexLock lock(mu_);
  return cv_.WaitFor(lock, timeout,
                     [this]() REQUIRES(mu_) { return callbacks_done_; });
}

}  // namespace gcushare
