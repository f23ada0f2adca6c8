// Fixture for //base:thread_safety_test: a CondVar predicate that reads
// guarded state without saying REQUIRES(mu_); the clang-tsa flags must
// reject it (the lambda body is checked as a function of its own).
#include "base/mutex.h"
#include "base/thread_annotations.h"

namespace fixture {

class Account {
 public:
  int WaitForBalance() {
    gcushare::base::MutexLock lock(mu_);
    cv_.Wait(lock, [this] { return balance_ > 0; });  // Rejected.
    return balance_;
  }

 private:
  gcushare::base::Mutex mu_;
  gcushare::base::CondVar cv_;
  int balance_ GUARDED_BY(mu_) = 0;
};

}  // namespace fixture
