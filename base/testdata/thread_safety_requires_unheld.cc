// Fixture for //base:thread_safety_test: calls a REQUIRES(mu_) helper
// without the mutex; the clang-tsa flags must reject it.
#include "base/mutex.h"
#include "base/thread_annotations.h"

namespace fixture {

class Account {
 public:
  void Deposit(int amount) { AddLocked(amount); }  // Unlocked: rejected.

 private:
  void AddLocked(int amount) REQUIRES(mu_) { balance_ += amount; }

  gcushare::base::Mutex mu_;
  int balance_ GUARDED_BY(mu_) = 0;
};

}  // namespace fixture
